import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { neverResolves, type AddressMap } from './address-map.js';
import { enforceOriginCertificateName, originTlsOptions, type OriginTlsTarget } from './origin-tls.js';
import type { OriginEntry, OriginGroupEntry, RoutingTable } from './routing-table.js';

interface GroupProbe {
  signature: string;
  timer: NodeJS.Timeout;
}

const PROBE_TIMEOUT_MS = 2_000;

/**
 * Health probes per origin group (path, protocol, method, interval from healthProbeSettings). Only HTTP 200 counts
 * as a success. An origin is unhealthy when fewer than `successfulSamplesRequired` of its last `sampleSize` probes
 * succeeded; until it has had a chance to fail that many, it counts as healthy. Groups without probe settings are
 * never probed and their origins count as healthy.
 */
export class HealthProber {
  private readonly probes = new Map<string, GroupProbe>();
  private readonly samples = new Map<string, boolean[]>();
  private groups = new Map<string, OriginGroupEntry>();

  constructor(
    private readonly addresses: AddressMap,
    private readonly intervalScale: number,
  ) {}

  /** Follows the newest configuration: starts, restarts or stops each group's probe timer. */
  update(table: RoutingTable): void {
    this.groups = table.originGroups;
    for (const [key, probe] of this.probes) {
      const group = table.originGroups.get(key);
      if (group?.probe === undefined || signatureOf(group) !== probe.signature) {
        clearInterval(probe.timer);
        this.probes.delete(key);
      }
    }
    for (const group of table.originGroups.values()) {
      if (group.probe === undefined || this.probes.has(group.key)) continue;
      const intervalMs = Math.max(5, group.probe.intervalSeconds * 1000 * this.intervalScale);
      const timer = setInterval(() => void this.probeGroup(group.key), intervalMs);
      timer.unref();
      this.probes.set(group.key, { signature: signatureOf(group), timer });
    }
  }

  isHealthy(groupKey: string, originKey: string): boolean {
    const group = this.groups.get(groupKey);
    if (group?.probe === undefined) return true;
    const window = (this.samples.get(originKey) ?? []).slice(-group.sampleSize);
    const failures = window.filter((ok) => !ok).length;
    return failures <= group.sampleSize - group.successfulSamplesRequired;
  }

  describe(): Array<{ originKey: string; samples: boolean[] }> {
    return [...this.samples.entries()].map(([originKey, samples]) => ({ originKey, samples: [...samples] }));
  }

  /** Probes every group once now and resolves when the samples are recorded (tests: no waiting for the interval). */
  async probeAll(): Promise<void> {
    await Promise.all([...this.groups.keys()].map((groupKey) => this.probeGroup(groupKey)));
  }

  stop(): void {
    for (const probe of this.probes.values()) clearInterval(probe.timer);
    this.probes.clear();
  }

  private async probeGroup(groupKey: string): Promise<void> {
    const group = this.groups.get(groupKey);
    if (group?.probe === undefined) return;
    await Promise.all(
      group.origins
        .filter((origin) => origin.enabled)
        .map(async (origin) => {
          const ok = await probeOrigin(origin, group, this.addresses);
          const history = this.samples.get(origin.key) ?? [];
          history.push(ok);
          this.samples.set(origin.key, history.slice(-Math.max(group.sampleSize, 1)));
        }),
    );
  }
}

function signatureOf(group: OriginGroupEntry): string {
  return JSON.stringify([group.probe, group.origins.map((origin) => origin.key)]);
}

function probeOrigin(origin: OriginEntry, group: OriginGroupEntry, addresses: AddressMap): Promise<boolean> {
  const probe = group.probe as NonNullable<OriginGroupEntry['probe']>;
  const https = probe.protocol === 'Https';
  const target = addresses.resolve(origin.hostName, https ? origin.httpsPort : origin.httpPort);
  if (neverResolves(target.host)) return Promise.resolve(false);
  const host = origin.hostHeader ?? origin.hostName;
  const tls: OriginTlsTarget = { expectedName: host, enforceCertificateNameCheck: origin.enforceCertificateNameCheck };
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      {
        host: target.host,
        port: target.port,
        path: probe.path,
        method: probe.method,
        headers: { host, 'user-agent': 'Edge Health Probe' },
        timeout: PROBE_TIMEOUT_MS,
        // A fresh connection per probe, as a prober does: every probe goes through the TLS handshake and name check.
        agent: false,
        ...(https ? originTlsOptions(tls) : {}),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    if (https) enforceOriginCertificateName(req, tls);
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
