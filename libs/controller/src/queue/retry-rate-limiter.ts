import { exponentialDelay, type BackoffOptions } from '../util/backoff.js';
import { TokenBucket, type TokenBucketOptions } from './token-bucket.js';

export interface RetryRateLimiterOptions {
  /** Per-key exponential backoff: the n-th consecutive failure of one key waits base * 2^n, capped. */
  readonly perKey: BackoffOptions;
  /** Overall limit on retries across all keys, so that a mass failure does not hammer the API server. */
  readonly overall: TokenBucketOptions;
}

/** controller-runtime's defaults: 5 ms doubling to 1000 s per key, 10 retries/s with a burst of 100 overall. */
export const defaultRetryRateLimiterOptions: RetryRateLimiterOptions = {
  perKey: { baseMs: 5, maxMs: 1_000_000 },
  overall: { perSecond: 10, burst: 100 },
};

/** Decides how long a failed key waits before its next attempt: the larger of its own backoff and the overall limit. */
export class RetryRateLimiter {
  private readonly failures = new Map<string, number>();
  private readonly bucket: TokenBucket;

  constructor(
    private readonly options: RetryRateLimiterOptions = defaultRetryRateLimiterOptions,
    now: number = Date.now(),
  ) {
    this.bucket = new TokenBucket(options.overall, now);
  }

  /** Records one more failure of `key` and returns the delay in milliseconds before it may run again. */
  when(key: string, now: number = Date.now()): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    return Math.max(exponentialDelay(this.options.perKey, failures), this.bucket.reserve(now));
  }

  /** Clears the key's failure history once it reconciled successfully (or gave up for good). */
  forget(key: string): void {
    this.failures.delete(key);
  }
}
