export interface BucketSettings {
  readonly burst: number;
  readonly refillPerSecond: number;
}

/** ARM's per-subscription token buckets: reads 250 burst + 25/s, writes 200 burst + 10/s. */
const ARM_BUCKETS: Readonly<Record<RequestClass, BucketSettings>> = {
  reads: { burst: 250, refillPerSecond: 25 },
  writes: { burst: 200, refillPerSecond: 10 },
};

/** A share (0, 1] of ARM's buckets for one process (the hub's --arm-rate-limit-share); bursts at least 1. */
export function armBucketsShare(share: number): Readonly<Record<RequestClass, BucketSettings>> {
  if (!(share > 0 && share <= 1)) throw new RangeError(`ARM rate-limit share must be in (0, 1]; got ${share}`);
  const part = (bucket: BucketSettings) => ({ burst: Math.max(1, Math.floor(bucket.burst * share)), refillPerSecond: bucket.refillPerSecond * share });
  return { reads: part(ARM_BUCKETS.reads), writes: part(ARM_BUCKETS.writes) };
}

/**
 * Half of ARM's buckets, so that one process never takes more than half of what ARM allows and other clients of the
 * subscription keep the rest.
 */
export const DEFAULT_ARM_BUCKETS = armBucketsShare(0.5);

export type RequestClass = 'reads' | 'writes';

export interface RateLimiterOptions {
  readonly reads?: Partial<BucketSettings>;
  readonly writes?: Partial<BucketSettings>;
  /** Milliseconds clock and sleep, replaceable so that tests control time. */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  // Acquisitions queue up in arrival order, so a burst of callers is served fairly.
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly settings: BucketSettings,
    private readonly now: () => number,
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>,
  ) {
    this.tokens = settings.burst;
    this.updatedAt = now();
  }

  acquire(signal?: AbortSignal): Promise<number> {
    const turn = this.tail.then(() => this.take(signal));
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.settings.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.settings.refillPerSecond);
    this.updatedAt = now;
  }

  /** Takes one token, waiting for it if needed; returns how long it waited. */
  private async take(signal?: AbortSignal): Promise<number> {
    this.refill();
    let waited = 0;
    if (this.tokens < 1) {
      waited = Math.ceil(((1 - this.tokens) / this.settings.refillPerSecond) * 1000);
      await this.wait(waited, signal);
      this.refill();
    }
    this.tokens = Math.max(0, this.tokens - 1);
    return waited;
  }
}

export interface RateLimiterStats {
  readonly requests: Readonly<Record<RequestClass, number>>;
  readonly waitedMs: number;
}

/**
 * One client-side limiter for every ARM request of the process (reads and writes as ARM counts them). It sits in
 * the SDK pipeline after the retry policy, so retries and long-running-operation polls take tokens too.
 */
export class ArmRateLimiter {
  private readonly buckets: Record<RequestClass, TokenBucket>;
  private readonly counts: Record<RequestClass, number> = { reads: 0, writes: 0 };
  private waitedMs = 0;

  constructor(options: RateLimiterOptions = {}) {
    const now = options.now ?? Date.now;
    const wait = options.sleep ?? sleep;
    this.buckets = {
      reads: new TokenBucket(validBucket('reads', { ...DEFAULT_ARM_BUCKETS.reads, ...options.reads }), now, wait),
      writes: new TokenBucket(validBucket('writes', { ...DEFAULT_ARM_BUCKETS.writes, ...options.writes }), now, wait),
    };
  }

  static classify(method: string): RequestClass {
    const upper = method.toUpperCase();
    return upper === 'GET' || upper === 'HEAD' ? 'reads' : 'writes';
  }

  async acquire(method: string, signal?: AbortSignal): Promise<void> {
    const kind = ArmRateLimiter.classify(method);
    this.counts[kind] += 1;
    const waited = await this.buckets[kind].acquire(signal);
    this.waitedMs += waited;
  }

  stats(): RateLimiterStats {
    return { requests: { ...this.counts }, waitedMs: this.waitedMs };
  }
}

function validBucket(kind: RequestClass, settings: BucketSettings): BucketSettings {
  if (!(settings.burst >= 1) || !(settings.refillPerSecond > 0)) {
    throw new Error(
      `rate limiter ${kind}: burst must be at least 1 and refillPerSecond above 0; got burst ${settings.burst}, refillPerSecond ${settings.refillPerSecond}`,
    );
  }
  return settings;
}
