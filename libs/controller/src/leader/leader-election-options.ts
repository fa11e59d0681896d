import type { KubeClient } from '../kube/kube-client.js';
import type { ControllerMetrics } from '../observability/controller-metrics.js';
import type { Logger } from '../observability/logger.js';

export interface LeaderElectionOptions {
  readonly client: KubeClient;
  readonly namespace: string;
  /** The Lease name, shared by all replicas of one agent. */
  readonly name: string;
  /** Unique per replica, e.g. the pod name. */
  readonly identity: string;
  /** How long a lease is valid after its last observed renewal (whole seconds on the wire). Default 15 s. */
  readonly leaseDurationMs?: number;
  /** A leader that could not renew for this long steps down. Default 10 s. */
  readonly renewDeadlineMs?: number;
  /** Time between attempts to acquire or renew. Default 2 s. */
  readonly retryPeriodMs?: number;
  readonly metrics?: ControllerMetrics;
  readonly logger?: Logger;
}

export interface LeaderElectionTimings {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** client-go's jitter factor for acquire attempts. */
export const acquireJitter = 1.2;

/** Defaults are client-go's; the same ordering rules apply (lease > renew deadline > jittered retry period). */
export function resolveLeaderElectionTimings(options: LeaderElectionOptions): LeaderElectionTimings {
  const timings = {
    leaseDurationMs: options.leaseDurationMs ?? 15_000,
    renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
    retryPeriodMs: options.retryPeriodMs ?? 2_000,
  };
  const where = `leader election ${options.namespace}/${options.name}`;
  if (!(timings.leaseDurationMs >= 1000)) {
    throw new Error(`${where}: leaseDurationMs must be at least 1000, got ${timings.leaseDurationMs}`);
  }
  if (!(timings.leaseDurationMs > timings.renewDeadlineMs)) {
    throw new Error(`${where}: leaseDurationMs (${timings.leaseDurationMs}) must be greater than renewDeadlineMs (${timings.renewDeadlineMs})`);
  }
  if (!(timings.renewDeadlineMs > acquireJitter * timings.retryPeriodMs) || !(timings.retryPeriodMs > 0)) {
    throw new Error(
      `${where}: renewDeadlineMs (${timings.renewDeadlineMs}) must be greater than ${acquireJitter} × retryPeriodMs (${timings.retryPeriodMs}), and retryPeriodMs > 0`,
    );
  }
  if (!options.identity) throw new Error(`${where}: identity must not be empty`);
  return timings;
}
