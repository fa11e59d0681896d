import type { Clock, RequestClass } from './throttling.js';

/**
 * A resource provider's own request limit, applied after ARM's buckets let a request through: at most `reads` GETs
 * and `writes` other requests per subscription in any window of `windowSeconds` (Microsoft.Network: 10,000 reads and
 * 1,000 writes per 5 minutes, ../shared/reference/upstream-contract.md §3). A sliding window, so the figure holds for
 * every 5-minute span (ledger A47).
 */
export interface ProviderLimitSettings {
  reads: number;
  writes: number;
  windowSeconds: number;
}

export const NETWORK_DEFAULT_LIMITS: ProviderLimitSettings = { reads: 10_000, writes: 1_000, windowSeconds: 300 };

/** Counts requests in a sliding window; refuses one that would exceed the limit. */
export class SlidingWindowLimit {
  /** Times of the admitted requests still inside the window, oldest first. */
  private readonly admitted: number[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Admits one request, or returns the seconds until the oldest one leaves the window (ARM's Retry-After). */
  take(): { granted: true } | { granted: false; retryAfterSeconds: number } {
    const now = this.clock();
    while (this.head < this.admitted.length && (this.admitted[this.head] as number) <= now - this.windowMs) this.head += 1;
    // Drop expired entries in batches, so a take stays O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.admitted.length) {
      this.admitted.splice(0, this.head);
      this.head = 0;
    }
    if (this.admitted.length - this.head < this.limit) {
      this.admitted.push(now);
      return { granted: true };
    }
    const oldest = this.admitted[this.head] as number;
    return { granted: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }
}

/** The provider scope: one window per subscription and request class, for one resource provider namespace. */
export class ProviderThrottler {
  private readonly windows = new Map<string, SlidingWindowLimit>();

  constructor(
    readonly namespace: string,
    private readonly settings: ProviderLimitSettings,
    private readonly clock: Clock,
  ) {}

  appliesTo(provider: string): boolean {
    return provider.toLowerCase() === this.namespace.toLowerCase();
  }

  take(subscriptionId: string, requestClass: RequestClass): { granted: true } | { granted: false; retryAfterSeconds: number; limit: number } {
    const key = `${subscriptionId.toLowerCase()}/${requestClass}`;
    let window = this.windows.get(key);
    if (window === undefined) {
      window = new SlidingWindowLimit(this.settings[requestClass], this.settings.windowSeconds * 1000, this.clock);
      this.windows.set(key, window);
    }
    const outcome = window.take();
    return outcome.granted ? outcome : { ...outcome, limit: this.settings[requestClass] };
  }

  /** The window as ARM's messages write it, e.g. `00:05:00`. */
  windowText(): string {
    const seconds = this.settings.windowSeconds;
    return [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60].map((n) => String(n).padStart(2, '0')).join(':');
  }
}
