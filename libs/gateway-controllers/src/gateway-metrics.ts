import { Counter, Gauge, type Registry } from 'prom-client';
import type { CapacityDimension } from '@fleet-gateway/azure-frontdoor';
import type { ProgrammedState } from './gateway-status.js';

/** `azure-unreadable`: Azure could not be read; the Gateway's status stays as last observed. */
export const GATEWAY_STATES = ['programmed', 'pending', 'failed', 'azure-unreadable', 'held', 'disabled', 'not-accepted', 'deleting'] as const;
export type GatewayState = (typeof GATEWAY_STATES)[number];

interface GatewayFigures {
  readonly state: GatewayState;
  readonly pendingPrivateLink: number;
  readonly usage: readonly { readonly dimension: CapacityDimension; readonly ratio: number }[];
}

function stateOf(state: ProgrammedState): GatewayState {
  switch (state.kind) {
    case 'reconciled':
      if (state.report.reason === 'AzureReadFailed') return 'azure-unreadable';
      return state.report.programmed ? 'programmed' : state.report.reason === 'Pending' ? 'pending' : 'failed';
    case 'over-quota':
      return 'failed';
    case 'held':
      return 'held';
    case 'disabled':
      return 'disabled';
    case 'not-accepted':
      return 'not-accepted';
    case 'deleting':
      return 'deleting';
    case 'programming':
      return state.serving ? 'programmed' : 'pending';
  }
}

/**
 * The Gateway controller's gauges, computed at scrape time from the last reconcile of each Gateway: Gateways by
 * state, Private Link connections awaiting approval, and the highest use of each AFD limit over all profiles.
 */
export class GatewayMetrics {
  private readonly figures = new Map<string, GatewayFigures>();
  private readonly statusWriteFailures: Counter<'kind' | 'reason'>;

  /** `programmingTasks`: how many Gateways' programming of Azure runs now (ProgrammingTasks.running). */
  constructor(registry: Registry, programmingTasks?: () => number) {
    const figures = this.figures;
    this.statusWriteFailures = new Counter({
      name: 'fleet_gateway_status_write_failures_total',
      help: 'Status writes of HTTPRoutes and InternalServiceExports the API server refused or did not answer, by object kind and reason (each is retried with its own backoff)',
      labelNames: ['kind', 'reason'],
      registers: [registry],
    });
    new Gauge({
      name: 'fleet_gateway_gateways',
      help: 'Gateways of this controller by state after their last reconcile',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const state of GATEWAY_STATES) this.set({ state }, 0);
        for (const f of figures.values()) this.inc({ state: f.state });
      },
    });
    new Gauge({
      name: 'fleet_gateway_private_link_connections_pending',
      help: 'Private Link connections of programmed origins that the members have not approved yet',
      registers: [registry],
      collect() {
        this.set([...figures.values()].reduce((sum, f) => sum + f.pendingPrivateLink, 0));
      },
    });
    if (programmingTasks)
      new Gauge({
        name: 'fleet_gateway_programming_tasks',
        help: 'Gateways whose programming of Azure runs now, apart from the controller workers (their writes share the ARM limiter)',
        registers: [registry],
        collect() {
          this.set(programmingTasks());
        },
      });
    new Gauge({
      name: 'fleet_gateway_afd_capacity_usage_ratio',
      help: 'Highest use of each AFD limit over all profiles, as a fraction of the limit of their SKU',
      labelNames: ['dimension'],
      registers: [registry],
      collect() {
        this.reset();
        const highest = new Map<string, number>();
        for (const f of figures.values()) for (const u of f.usage) highest.set(u.dimension, Math.max(highest.get(u.dimension) ?? 0, u.ratio));
        for (const [dimension, ratio] of highest) this.set({ dimension }, ratio);
      },
    });
  }

  record(key: string, state: ProgrammedState): void {
    const report = state.kind === 'reconciled' ? state.report : undefined;
    const previous = this.figures.get(key);
    this.figures.set(key, {
      state: stateOf(state),
      pendingPrivateLink: report ? report.privateLinkAwaiting : (previous?.pendingPrivateLink ?? 0),
      usage: report ? report.usage.map((u) => ({ dimension: u.dimension, ratio: u.limit > 0 ? u.value / u.limit : 0 })) : (previous?.usage ?? []),
    });
  }

  /** `reason`: the API server's Status reason (Forbidden, Invalid, Conflict, …) or the connection error code. */
  statusWriteFailed(kind: string, reason: string): void {
    this.statusWriteFailures.inc({ kind, reason });
  }

  forget(key: string): void {
    this.figures.delete(key);
  }
}
