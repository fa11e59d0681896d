import { fileURLToPath } from 'node:url';
import type { DeploymentTiming } from './arm/context.js';
import type { ProviderLimitSettings } from './arm/provider-throttling.js';
import { ARM_DEFAULT_THROTTLING, type BucketSettings, type ThrottlingSettings } from './arm/throttling.js';
import { resolveLimits, type LimitOverrides, type Limits } from './limits.js';

export interface EmulatorOptions {
  /** Ports on 127.0.0.1; 0 (the default) picks free ones. */
  armPort?: number;
  edgePort?: number;
  adminPort?: number;
  /** How long a long-running operation takes before it ends (default 100 ms; 0 ends it within the request). */
  lroDelayMs?: number;
  /** Retry-After (seconds) on responses of running operations; omitted by default. */
  lroRetryAfterSeconds?: number;
  /** Items per list page before `nextLink` (default 100). */
  pageSize?: number;
  /** AFD deploymentStatus timing (default: 50 ms NotStarted, 200 ms InProgress). */
  deployment?: Partial<DeploymentTiming>;
  /**
   * ARM token buckets (default ARM's: reads 250 burst +25/s, writes 200 burst +10/s) and Microsoft.Network's own
   * per-subscription limit (default 10,000 reads and 1,000 writes per 300 s; `network: false` turns it off);
   * `false` turns all throttling off.
   */
  throttling?: false | { reads?: Partial<BucketSettings>; writes?: Partial<BucketSettings>; network?: false | Partial<ProviderLimitSettings> };
  /** Lower or raise Azure limits (e.g. to reach them in a test). */
  limits?: LimitOverrides;
  edge?: EdgeOptions;
  /** The subscription AFD's managed private endpoints come from. */
  afdManagedSubscriptionId?: string;
  /** Directory of the vendored official specs (default: this project's specs/). */
  specDir?: string;
  /** Random source for origin selection (default Math.random), so tests can be deterministic. */
  random?: () => number;
  /**
   * Time in ms since the epoch (default Date.now): drives deploymentStatus, the throttling buckets' refill and
   * timestamps, so tests can move time instead of waiting for it. Long-running operations and edge delays use timers.
   */
  clock?: () => number;
}

export interface EdgeOptions {
  /** One simulated edge per entry: how long it takes that edge to apply a change (default [0, 150, 300]). */
  propagationDelaysMs?: number[];
  /** Multiplies every origin group's probeIntervalInSeconds (default 1; tests use e.g. 0.02). */
  probeIntervalScale?: number;
  /** Simulated network latency from the edge to an origin, by origin host name (default 0). */
  originLatencyMs?: Record<string, number>;
}

export interface ResolvedOptions {
  armPort: number;
  edgePort: number;
  adminPort: number;
  lroDelayMs: number;
  lroRetryAfterSeconds?: number;
  pageSize: number;
  deployment: DeploymentTiming;
  throttling?: ThrottlingSettings;
  limits: Limits;
  edge: Required<EdgeOptions>;
  afdManagedSubscriptionId: string;
  specDir: string;
  random: () => number;
  clock: () => number;
}

export const DEFAULT_SPEC_DIR = fileURLToPath(new URL('../specs', import.meta.url));

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    armPort: options.armPort ?? 0,
    edgePort: options.edgePort ?? 0,
    adminPort: options.adminPort ?? 0,
    lroDelayMs: options.lroDelayMs ?? 100,
    lroRetryAfterSeconds: options.lroRetryAfterSeconds,
    pageSize: options.pageSize ?? 100,
    deployment: { mode: 'progress', notStartedMs: 50, inProgressMs: 200, ...options.deployment },
    throttling:
      options.throttling === false
        ? undefined
        : {
            reads: { ...ARM_DEFAULT_THROTTLING.reads, ...options.throttling?.reads },
            writes: { ...ARM_DEFAULT_THROTTLING.writes, ...options.throttling?.writes },
            ...(options.throttling?.network === false ? {} : { network: { ...ARM_DEFAULT_THROTTLING.network, ...options.throttling?.network } }),
          },
    limits: resolveLimits(options.limits),
    edge: {
      propagationDelaysMs: options.edge?.propagationDelaysMs ?? [0, 150, 300],
      probeIntervalScale: options.edge?.probeIntervalScale ?? 1,
      originLatencyMs: { ...options.edge?.originLatencyMs },
    },
    afdManagedSubscriptionId: options.afdManagedSubscriptionId ?? 'afd00000-0000-4000-8000-00000000afd0',
    specDir: options.specDir ?? DEFAULT_SPEC_DIR,
    random: options.random ?? Math.random,
    clock: options.clock ?? Date.now,
  };
}
