import type { EmulatorContext } from '../emulator-context.js';
import type { Target } from '../edge/address-map.js';
import type { EdgeRuntime, EdgeStatus } from '../edge/edge-runtime.js';
import { ArmAdmin, type StateDump } from './admin-api.js';
import type { RequestCounters } from './counters.js';
import type { FaultInjector } from './faults.js';

/** The admin API in process: ARM controls plus the edge's (propagation, latency, address mapping). */
export class EmulatorAdmin extends ArmAdmin {
  /** The admin HTTP endpoint (same operations over JSON); set once the admin server listens. */
  url = '';

  constructor(
    context: EmulatorContext,
    counters: RequestCounters,
    faults: FaultInjector,
    private readonly edge: EdgeRuntime,
  ) {
    super(context, counters, faults);
  }

  /** Resolves once every simulated edge serves the configuration as of now. */
  whenPropagated(): Promise<void> {
    return this.edge.whenPropagated();
  }

  edgeStatus(): EdgeStatus {
    return this.edge.status();
  }

  /** Simulated latency from the edges to an origin host (drives AFD's latency band). */
  setOriginLatency(hostName: string, latencyMs: number): void {
    this.edge.setOriginLatency(hostName, latencyMs);
  }

  /** Sends traffic for an emulated address (a load balancer frontend, a public IP or its FQDN) to a local backend. */
  mapAddress(address: string, port: number, target: Target): void {
    this.edge.mapAddress(address, port, target);
  }

  unmapAddress(address: string, port: number): void {
    this.edge.unmapAddress(address, port);
  }

  dumpState(): StateDump {
    return { ...this.dumpResources(), edges: { ...this.edge.status(), health: this.edge.originHealth(), addresses: this.edge.addresses.entries() } };
  }
}
