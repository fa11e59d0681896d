import { NETWORK_DEFAULT_LIMITS, ProviderThrottler, type ProviderLimitSettings } from './provider-throttling.js';

/**
 * ARM's request throttling: a token bucket per subscription for reads and another for writes
 * (https://learn.microsoft.com/azure/azure-resource-manager/management/request-limits-and-throttling), then the
 * resource provider's own limit for Microsoft.Network requests.
 */
export interface BucketSettings {
  burst: number;
  refillPerSecond: number;
}

export interface ThrottlingSettings {
  reads: BucketSettings;
  writes: BucketSettings;
  /** Microsoft.Network's per-subscription limit; undefined: not enforced. */
  network?: ProviderLimitSettings;
}

export const ARM_DEFAULT_THROTTLING: Required<ThrottlingSettings> = {
  reads: { burst: 250, refillPerSecond: 25 },
  writes: { burst: 200, refillPerSecond: 10 },
  network: NETWORK_DEFAULT_LIMITS,
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
  { allowed: true; headers: Record<string, string> } | { allowed: false; retryAfterSeconds: number; headers: Record<string, string>; message: string };

/**
 * Buckets per subscription and request class, then the provider scope; `undefined` settings turn throttling off.
 * A request the provider refuses has already spent its ARM token, as on Azure (ARM admitted and routed it).
 */
export class Throttler {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly network: ProviderThrottler | undefined;

  constructor(
    private readonly settings: ThrottlingSettings | undefined,
    private readonly clock: Clock = Date.now,
  ) {
    const network = settings?.network;
    this.network = network === undefined ? undefined : new ProviderThrottler('Microsoft.Network', network, clock);
  }

  /** `provider`: the namespace in the request path (e.g. `Microsoft.Network`). */
  admit(subscriptionId: string, method: string, provider: string): ThrottleDecision {
    if (this.settings === undefined) return { allowed: true, headers: {} };
    const requestClass = requestClassOf(method);
    const verb = requestClass === 'reads' ? 'read' : 'write';
    const header = `x-ms-ratelimit-remaining-subscription-${requestClass}`;
    const outcome = this.bucket(subscriptionId.toLowerCase(), requestClass).take();
    if (!outcome.granted) {
      return {
        allowed: false,
        retryAfterSeconds: outcome.retryAfterSeconds,
        headers: { [header]: '0' },
        message:
          `Number of '${verb}' requests for subscription '${subscriptionId}' exceeded. Please try again after ` +
          `'${outcome.retryAfterSeconds}' seconds after additional tokens are available. Refer to https://aka.ms/arm-throttling`,
      };
    }
    const headers = { [header]: String(outcome.remaining) };
    if (this.network === undefined || !this.network.appliesTo(provider)) return { allowed: true, headers };
    const providerOutcome = this.network.take(subscriptionId, requestClass);
    if (providerOutcome.granted) return { allowed: true, headers };
    return {
      allowed: false,
      retryAfterSeconds: providerOutcome.retryAfterSeconds,
      headers,
      message:
        `Number of '${verb}' requests for subscription '${subscriptionId}' actually exceeded the limit of '${providerOutcome.limit}' ` +
        `for time interval '${this.network.windowText()}' in resource provider '${this.network.namespace}'. ` +
        `Please try again after '${providerOutcome.retryAfterSeconds}' seconds.`,
    };
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
