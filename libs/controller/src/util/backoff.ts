/**
 * Exponential backoff with a cap, shared by the work queue (per-key retries) and the informer (relist after errors).
 * Jitter spreads restarts of many watchers so that an API server coming back is not hit by all of them at once.
 */
export interface BackoffOptions {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** The delay before attempt `failures` (0-based count of failures so far): base * 2^failures, capped at max. */
export function exponentialDelay(options: BackoffOptions, failures: number): number {
  const exponent = Math.min(Math.max(failures, 0), 52);
  return Math.min(options.baseMs * 2 ** exponent, options.maxMs);
}

/**
 * Stretches `ms` by a random amount in [0, factor * ms). Only ever lengthens, so a jittered delay is never shorter
 * than the backoff it came from (tests and callers can rely on the lower bound).
 */
export function withJitter(ms: number, factor: number, random: () => number = Math.random): number {
  return ms + ms * factor * random();
}
