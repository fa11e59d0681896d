import type { BucketSettings } from '@fleet-gateway/arm-runtime';

/**
 * The least time in which a token bucket that starts full admits `requests`: the burst at once, the rest at the
 * refill rate. Seconds.
 */
export function tokenBoundSeconds(requests: number, bucket: BucketSettings): number {
  return Math.max(0, requests - bucket.burst) / bucket.refillPerSecond;
}
