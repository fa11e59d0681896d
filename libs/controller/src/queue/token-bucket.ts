/**
 * A token bucket that hands out reservations: each call takes one token and returns how long the caller must wait
 * for it. Tokens may go negative, so a burst of reservations is spread out at `perSecond` instead of all being told
 * "wait one interval" (the behaviour of golang.org/x/time/rate's Reserve, which client-go's queue uses).
 */
export interface TokenBucketOptions {
  readonly perSecond: number;
  readonly burst: number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly options: TokenBucketOptions,
    now: number,
  ) {
    if (!(options.perSecond > 0)) throw new Error(`token bucket perSecond must be > 0, got ${options.perSecond}`);
    if (!(options.burst >= 1)) throw new Error(`token bucket burst must be >= 1, got ${options.burst}`);
    this.tokens = options.burst;
    this.last = now;
  }

  /** Takes one token; returns the wait in milliseconds (0 when a token was available). */
  reserve(now: number): number {
    this.refill(now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.options.perSecond) * 1000;
  }

  /** Takes one token only if one is available now; never goes into debt. */
  tryTake(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until one token is available (0 when one is now). */
  untilTokenMs(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.options.perSecond) * 1000);
  }

  /** True when the bucket has refilled to its burst, i.e. it holds no history worth keeping. */
  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.options.burst;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.options.burst, this.tokens + (elapsed * this.options.perSecond) / 1000);
  }
}
