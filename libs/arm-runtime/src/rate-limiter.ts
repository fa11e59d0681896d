import asyncHooks from 'node:async_hooks';
import { TokenBucket } from '@fleet-gateway/controller';
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

// `AsyncLocalStorage` is a lazy accessor of the module, read at run time (the agents' bundles import data exports only).
const armFlow = new asyncHooks.AsyncLocalStorage<string>();

/**
 * Runs `work` with its ARM requests counted to `flow` (e.g. one Gateway's programming): when the limiter makes
 * requests wait, flows take turns (see FairBucket), so one Gateway's hundreds of writes never queue another's first.
 */
export function withArmFlow<T>(flow: string, work: () => T): T {
  return armFlow.run(flow, work);
}

interface Waiter {
  readonly order: number;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
}

interface Flow {
  /** Requests this flow was served while it had some waiting: the flows with the fewest go first. */
  served: number;
  readonly waiting: Waiter[];
}

/**
 * One of the limiter's two buckets, served fairly among flows. While tokens last a request goes at once; when they
 * run out, waiting requests are served one token at a time to the flow served least since it began waiting
 * (arrival order among equals). A flow that starts waiting joins just below the count of the flow served last, so its
 * first request is served at the next token however many requests the others have queued: a team's change is not queued behind a
 * cold start's thousands of writes, and among backlogged flows service is round-robin.
 */
class FairBucket {
  private readonly bucket: TokenBucket;
  private readonly flows = new Map<string, Flow>();
  private arrivals = 0;
  /** The count the last served flow had when it was served. */
  private lastServed = 0;
  private dispatching = false;
  waitedMs = 0;

  constructor(
    settings: BucketSettings,
    private readonly now: () => number,
    private readonly wait: (ms: number) => Promise<void>,
  ) {
    this.bucket = new TokenBucket({ perSecond: settings.refillPerSecond, burst: settings.burst }, now());
  }

  acquire(flowKey: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.flows.size === 0 && this.bucket.tryTake(this.now())) return Promise.resolve();
    let flow = this.flows.get(flowKey);
    if (!flow) {
      // One below the count of the flow served last: its first request goes at the next token, the rest take turns.
      if (this.flows.size === 0) this.lastServed = 0;
      flow = { served: this.flows.size === 0 ? 0 : this.lastServed - 1, waiting: [] };
      this.flows.set(flowKey, flow);
    }
    const waiting = flow.waiting;
    const promise = new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { order: this.arrivals++, resolve, reject };
      waiting.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const at = waiting.indexOf(waiter);
          if (at < 0) return;
          waiting.splice(at, 1);
          if (waiting.length === 0 && this.flows.get(flowKey)?.waiting === waiting) this.flows.delete(flowKey);
          reject(signal.reason);
        },
        { once: true },
      );
    });
    void this.dispatch();
    return promise;
  }

  private async dispatch(): Promise<void> {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      while (this.flows.size > 0) {
        const waitMs = this.bucket.untilTokenMs(this.now());
        if (waitMs > 0) {
          await this.wait(waitMs);
          this.waitedMs += waitMs;
        }
        if (this.flows.size === 0 || !this.bucket.tryTake(this.now())) continue;
        const [key, flow] = this.nextFlow();
        const waiter = flow.waiting.shift()!;
        this.lastServed = flow.served;
        flow.served += 1;
        if (flow.waiting.length === 0) this.flows.delete(key);
        waiter.resolve();
      }
    } finally {
      this.dispatching = false;
    }
  }

  private nextFlow(): [string, Flow] {
    let next: [string, Flow] | undefined;
    for (const entry of this.flows) {
      const [, flow] = entry;
      if (!next || flow.served < next[1].served || (flow.served === next[1].served && flow.waiting[0]!.order < next[1].waiting[0]!.order)) next = entry;
    }
    return next!;
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
  private readonly buckets: Record<RequestClass, FairBucket>;
  private readonly counts: Record<RequestClass, number> = { reads: 0, writes: 0 };

  constructor(options: RateLimiterOptions = {}) {
    const now = options.now ?? Date.now;
    const wait = options.sleep ?? sleep;
    this.buckets = {
      reads: new FairBucket(validBucket('reads', { ...DEFAULT_ARM_BUCKETS.reads, ...options.reads }), now, wait),
      writes: new FairBucket(validBucket('writes', { ...DEFAULT_ARM_BUCKETS.writes, ...options.writes }), now, wait),
    };
  }

  static classify(method: string): RequestClass {
    const upper = method.toUpperCase();
    return upper === 'GET' || upper === 'HEAD' ? 'reads' : 'writes';
  }

  async acquire(method: string, signal?: AbortSignal): Promise<void> {
    const kind = ArmRateLimiter.classify(method);
    this.counts[kind] += 1;
    await this.buckets[kind].acquire(armFlow.getStore() ?? '', signal);
  }

  stats(): RateLimiterStats {
    return { requests: { ...this.counts }, waitedMs: this.buckets.reads.waitedMs + this.buckets.writes.waitedMs };
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
