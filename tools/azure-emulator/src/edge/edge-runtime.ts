import type { RunningServer } from '../arm/arm-server.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { ResolvedOptions } from '../options.js';
import { AddressMap, type Target } from './address-map.js';
import { EdgeFleet } from './edge-fleet.js';
import { startEdgeServer, startEdgeTlsServer, type EdgeDependencies } from './edge-server.js';
import { EdgeCertificates } from './edge-tls.js';
import type { ServerCertificates } from '../tls/certificates.js';
import { HealthProber } from './health-prober.js';
import { compileRoutingTable, hostKeyFor, type RoutingTable } from './routing-table.js';

export interface EdgeStatus {
  latestVersion: number;
  edges: Array<{ index: number; delayMs: number; version: number }>;
  requests: Array<{ edge: number; status: number; count: number }>;
}

/**
 * The edge side of the emulator: recompiles the routing table whenever ARM state changes (coalesced per tick),
 * publishes it to the simulated edges, probes origins, and serves HTTP.
 */
export class EdgeRuntime {
  readonly addresses = new AddressMap();
  private readonly fleet: EdgeFleet;
  private readonly prober: HealthProber;
  private readonly latencies: Map<string, number>;
  private readonly requestCounts = new Map<string, number>();
  private pendingCompile: Promise<void> | undefined;
  private server: RunningServer | undefined;
  private tlsServer: RunningServer | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly context: EmulatorContext,
    options: ResolvedOptions['edge'],
    private readonly random: () => number,
  ) {
    this.latencies = new Map(Object.entries(options.originLatencyMs).map(([host, ms]) => [host.toLowerCase(), ms]));
    this.fleet = new EdgeFleet(options.propagationDelaysMs, this.compile());
    this.prober = new HealthProber(this.addresses, options.probeIntervalScale);
    this.unsubscribe = context.store.onChange(() => this.scheduleCompile());
  }

  /** Starts the HTTP and HTTPS listeners; returns their URLs. */
  async start(port: number, tlsPort: number, ca: Pick<ServerCertificates, 'caCertificate' | 'caKey'>): Promise<{ url: string; tlsUrl: string }> {
    const dependencies: EdgeDependencies = {
      fleet: this.fleet,
      prober: this.prober,
      addresses: this.addresses,
      latencyMs: (origin) => this.latencies.get(origin.hostName.toLowerCase()) ?? 0,
      random: this.random,
      onRequest: (edge, status) => {
        const key = `${edge} ${status}`;
        this.requestCounts.set(key, (this.requestCounts.get(key) ?? 0) + 1);
      },
    };
    this.server = await startEdgeServer(dependencies, port);
    // A certificate for any host some edge serves: the newest table may not have reached every edge yet.
    const certificates = new EdgeCertificates(ca, (host) =>
      this.fleet.edges
        .map(({ table }) => table)
        .map((table) => hostKeyFor(table, host))
        .find((key) => key !== undefined),
    );
    this.tlsServer = await startEdgeTlsServer(dependencies, certificates, tlsPort);
    return { url: this.server.url, tlsUrl: this.tlsServer.url };
  }

  setOriginLatency(hostName: string, latencyMs: number): void {
    this.latencies.set(hostName.toLowerCase(), latencyMs);
  }

  mapAddress(address: string, port: number, target: Target): void {
    this.addresses.map(address, port, target);
  }

  unmapAddress(address: string, port: number): void {
    this.addresses.unmap(address, port);
  }

  /** Resolves once every simulated edge serves the configuration as of now. */
  async whenPropagated(): Promise<void> {
    await this.pendingCompile;
    await this.fleet.whenPropagated();
  }

  status(): EdgeStatus {
    return {
      latestVersion: this.fleet.latestTable().version,
      edges: this.fleet.edges.map((edge) => ({ index: edge.index, delayMs: edge.delayMs, version: edge.table.version })),
      requests: [...this.requestCounts.entries()].map(([key, count]) => {
        const [edge, status] = key.split(' ').map(Number) as [number, number];
        return { edge, status, count };
      }),
    };
  }

  originHealth(): Array<{ originKey: string; samples: boolean[] }> {
    return this.prober.describe();
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    this.prober.stop();
    this.fleet.stop();
    await Promise.all([this.server?.close(), this.tlsServer?.close()]);
  }

  private scheduleCompile(): void {
    if (this.pendingCompile !== undefined) return;
    this.pendingCompile = new Promise((resolve) => {
      setImmediate(() => {
        this.pendingCompile = undefined;
        const table = this.compile();
        this.prober.update(table);
        this.fleet.publish(table);
        resolve();
      });
    });
  }

  private compile(): RoutingTable {
    return compileRoutingTable({
      version: this.context.store.currentVersion(),
      records: this.context.store.all(),
      privateLinkServes: (originKey) => this.context.privateLink.servesTraffic(originKey),
    });
  }
}
