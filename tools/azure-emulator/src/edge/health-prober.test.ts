import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendCertificate, startBackend, type Backend } from '../testing/backends.js';
import { AddressMap } from './address-map.js';
import { HealthProber } from './health-prober.js';
import type { OriginEntry, OriginGroupEntry, ProbeSettings } from './routing-table.js';

// One emulated origin address, `secure.internal`: port 80 reaches a plain HTTP backend, port 443 an HTTPS backend whose
// certificate names only `secure.internal`. Probe intervals are 100 s, so only `probeAll()` probes: no waiting.
const ORIGIN_HOST = 'secure.internal';
let plain: Backend;
let secure: Backend;
let prober: HealthProber | undefined;

beforeAll(async () => {
  plain = await startBackend('plain');
  secure = await startBackend('secure', await backendCertificate([ORIGIN_HOST]));
});
afterEach(() => {
  prober?.stop();
  plain.probeStatus = 200;
  secure.probeStatus = 200;
  plain.probes.length = 0;
  secure.probes.length = 0;
});
afterAll(async () => {
  await Promise.all([plain.close(), secure.close()]);
});

function proberFor(
  protocol: ProbeSettings['protocol'],
  origins: Array<Partial<OriginEntry> & { name: string }>,
): { prober: HealthProber; group: OriginGroupEntry } {
  const addresses = new AddressMap();
  addresses.map(ORIGIN_HOST, 80, { host: '127.0.0.1', port: plain.port });
  addresses.map(ORIGIN_HOST, 443, { host: '127.0.0.1', port: secure.port });
  addresses.map(ORIGIN_HOST, 444, { host: '127.0.0.1', port: 1 }); // nothing listens: an HTTPS endpoint that is down
  const group: OriginGroupEntry = {
    key: 'og',
    probe: { path: '/healthz', method: 'GET', protocol, intervalSeconds: 100 },
    sampleSize: 4,
    successfulSamplesRequired: 3,
    additionalLatencyMs: 50,
    origins: origins.map((origin) => ({
      key: `og/origins/${origin.name}`,
      hostName: ORIGIN_HOST,
      httpPort: 80,
      httpsPort: 443,
      enforceCertificateNameCheck: true,
      priority: 1,
      weight: 50,
      enabled: true,
      ...origin,
    })),
  };
  prober = new HealthProber(addresses, 1);
  prober.update({ version: 1, hosts: new Map(), originGroups: new Map([[group.key, group]]) });
  return { prober, group };
}

/** Two probe rounds: two failures in a window of four (three successes required) make an origin unhealthy. */
async function twoRounds(target: HealthProber): Promise<void> {
  await target.probeAll();
  await target.probeAll();
}

describe('HTTPS health probes', () => {
  it("probe over TLS to the origin's httpsPort with the origin host as Host and SNI; a failing HTTPS endpoint makes the origin unhealthy", async () => {
    const { prober: https } = proberFor('Https', [{ name: 'a' }]);
    await twoRounds(https);
    expect(secure.probes).toEqual([
      { method: 'GET', host: ORIGIN_HOST, userAgent: 'Edge Health Probe', servername: ORIGIN_HOST },
      { method: 'GET', host: ORIGIN_HOST, userAgent: 'Edge Health Probe', servername: ORIGIN_HOST },
    ]);
    expect(plain.probes).toEqual([]);
    expect(https.isHealthy('og', 'og/origins/a')).toBe(true);

    secure.probeStatus = 500;
    await twoRounds(https);
    expect(https.isHealthy('og', 'og/origins/a')).toBe(false);
    secure.probeStatus = 200;
    await twoRounds(https);
    expect(https.isHealthy('og', 'og/origins/a')).toBe(false); // last four: fail, fail, pass, pass
    await https.probeAll();
    expect(https.isHealthy('og', 'og/origins/a')).toBe(true);
  });

  it('sends an origin host header as SNI; with enforceCertificateNameCheck a certificate that does not name it fails the probe, without it the probe passes', async () => {
    const { prober: https } = proberFor('Https', [
      { name: 'checked', hostHeader: 'other.internal' },
      { name: 'unchecked', hostHeader: 'other.internal', enforceCertificateNameCheck: false },
    ]);
    await twoRounds(https);
    expect(https.isHealthy('og', 'og/origins/checked')).toBe(false);
    expect(https.isHealthy('og', 'og/origins/unchecked')).toBe(true);
    expect(secure.probes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(secure.probes.map((probe) => `${probe.servername} ${probe.host}`))).toEqual(new Set(['other.internal other.internal']));
  });

  it('an HTTPS endpoint that is down makes the origin unhealthy even though its HTTP port answers 200', async () => {
    const { prober: https } = proberFor('Https', [{ name: 'a', httpsPort: 444 }]);
    await twoRounds(https);
    expect(https.isHealthy('og', 'og/origins/a')).toBe(false);
    expect(plain.probes).toEqual([]);
  });

  it('sends an Http probe to the httpPort only, never to the HTTPS port', async () => {
    const { prober: http } = proberFor('Http', [{ name: 'a' }]);
    await twoRounds(http);
    expect(plain.probes.map((probe) => probe.host)).toEqual([ORIGIN_HOST, ORIGIN_HOST]);
    expect(plain.probes[0]?.servername).toBeUndefined();
    expect(secure.probes).toEqual([]);
    plain.probeStatus = 503;
    secure.probeStatus = 200;
    await twoRounds(http);
    expect(http.isHealthy('og', 'og/origins/a')).toBe(false);
  });
});
