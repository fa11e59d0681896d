/**
 * ARM's request throttling: a token bucket per subscription for reads and another for writes
 * (https://learn.microsoft.com/azure/azure-resource-manager/management/request-limits-and-throttling).
 */
export interface BucketSettings {
  burst: number;
  refillPerSecond: number;
}

export interface ThrottlingSettings {
  reads: BucketSettings;
  writes: BucketSettings;
}

export const ARM_DEFAULT_THROTTLING: ThrottlingSettings = {
  reads: { burst: 250, refillPerSecond: 25 },
  writes: { burst: 200, refillPerSecond: 10 },
};

export type Clock = () => number;

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly settings: BucketSettings,
    private readonly clock: Clock,
  ) {
    this.tokens = settings.burst;
    this.updatedAt = clock();
  }

  /** Takes one token. Returns the tokens left, or the seconds to wait (ARM's Retry-After) when empty. */
  take(): { granted: true; remaining: number } | { granted: false; retryAfterSeconds: number } {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { granted: true, remaining: Math.floor(this.tokens) };
    }
    const secondsToNextToken = (1 - this.tokens) / this.settings.refillPerSecond;
    return { granted: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsToNextToken)) };
  }

  private refill(): void {
    const now = this.clock();
    const elapsedSeconds = (now - this.updatedAt) / 1000;
    this.updatedAt = now;
    this.tokens = Math.min(this.settings.burst, this.tokens + elapsedSeconds * this.settings.refillPerSecond);
  }
}

export type RequestClass = 'reads' | 'writes';

function requestClassOf(method: string): RequestClass {
  return method === 'GET' || method === 'HEAD' ? 'reads' : 'writes';
}

export type ThrottleDecision =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; retryAfterSeconds: number; headers: Record<string, string> };

/** Buckets per subscription and request class; `undefined` settings turn throttling off. */
export class Throttler {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly settings: ThrottlingSettings | undefined,
    private readonly clock: Clock = Date.now,
  ) {}

  admit(subscriptionId: string, method: string): ThrottleDecision {
    if (this.settings === undefined) return { allowed: true, headers: {} };
    const requestClass = requestClassOf(method);
    const header = `x-ms-ratelimit-remaining-subscription-${requestClass}`;
    const outcome = this.bucket(subscriptionId.toLowerCase(), requestClass).take();
    if (!outcome.granted) {
      return { allowed: false, retryAfterSeconds: outcome.retryAfterSeconds, headers: { [header]: '0' } };
    }
    return { allowed: true, headers: { [header]: String(outcome.remaining) } };
  }

  private bucket(subscriptionId: string, requestClass: RequestClass): TokenBucket {
    const key = `${subscriptionId}/${requestClass}`;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket((this.settings as ThrottlingSettings)[requestClass], this.clock);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}
