import { randomBytes } from 'node:crypto';
import { TokenBucket, type TokenBucketOptions } from '../queue/token-bucket.js';

/** events.k8s.io/v1 regarding/related reference. */
export interface EventObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
}

export interface EventInput {
  readonly regarding: EventObjectReference;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly action: string;
  readonly note: string;
}

export interface EventAggregatorOptions {
  /** A repeat within this time of the previous occurrence extends its series; a later one starts a new Event. */
  readonly seriesWindowMs: number;
  /** At most one series write per Event per this interval; repeats in between are folded into the next write. */
  readonly seriesFlushMs: number;
  /** New Events per object and reason: client-go's spam filter allows a burst of 25, then one per 5 minutes. */
  readonly perObjectReason: TokenBucketOptions;
}

export const defaultEventAggregatorOptions: EventAggregatorOptions = {
  seriesWindowMs: 6 * 60_000,
  seriesFlushMs: 30_000,
  perObjectReason: { burst: 25, perSecond: 1 / 300 },
};

export type EventDecision =
  | { readonly kind: 'create'; readonly eventName: string; readonly namespace: string; readonly eventTime: number }
  | { readonly kind: 'series-pending'; readonly count: number }
  | { readonly kind: 'rate-limited' };

export interface SeriesUpdate {
  readonly eventName: string;
  readonly namespace: string;
  readonly count: number;
  readonly lastObservedTime: number;
}

interface Series {
  readonly eventName: string;
  readonly namespace: string;
  count: number;
  writtenCount: number;
  lastObserved: number;
  lastWritten: number;
}

/**
 * Decides, without I/O, what recording an event means: create a new Event, fold a repeat into an existing Event's
 * series (written later, at most once per flush interval), or drop it because the object and reason used up their
 * budget. Events for cluster-scoped objects live in `defaultNamespace`.
 */
export class EventAggregator {
  private readonly series = new Map<string, Series>();
  private readonly budgets = new Map<string, TokenBucket>();

  constructor(
    private readonly options: EventAggregatorOptions = defaultEventAggregatorOptions,
    private readonly defaultNamespace = 'default',
  ) {}

  observe(input: EventInput, now: number): EventDecision {
    const key = seriesKey(input);
    const existing = this.series.get(key);
    if (existing && now - existing.lastObserved <= this.options.seriesWindowMs) {
      existing.count += 1;
      existing.lastObserved = now;
      return { kind: 'series-pending', count: existing.count };
    }
    if (!this.budgetFor(input, now).tryTake(now)) return { kind: 'rate-limited' };
    const eventName = `${input.regarding.name}.${randomBytes(8).toString('hex')}`;
    const namespace = input.regarding.namespace ?? this.defaultNamespace;
    this.series.set(key, { eventName, namespace, count: 1, writtenCount: 1, lastObserved: now, lastWritten: now });
    return { kind: 'create', eventName, namespace, eventTime: now };
  }

  /**
   * Series whose count grew since the last write and whose last write is at least the flush interval old (or all of
   * them with `force`, on shutdown). They are marked written. Series idle past the window are forgotten.
   */
  dueSeriesUpdates(now: number, force = false): SeriesUpdate[] {
    const due: SeriesUpdate[] = [];
    for (const [key, s] of this.series) {
      if (s.count > s.writtenCount && (force || now - s.lastWritten >= this.options.seriesFlushMs)) {
        due.push({ eventName: s.eventName, namespace: s.namespace, count: s.count, lastObservedTime: s.lastObserved });
        s.writtenCount = s.count;
        s.lastWritten = now;
      } else if (s.count === s.writtenCount && now - s.lastObserved > this.options.seriesWindowMs) {
        this.series.delete(key);
      }
    }
    for (const [key, bucket] of this.budgets) if (bucket.isFull(now)) this.budgets.delete(key);
    return due;
  }

  /** Drops a series whose Event could not be created, so repeats start over instead of patching nothing. */
  forget(eventName: string): void {
    for (const [key, s] of this.series) if (s.eventName === eventName) this.series.delete(key);
  }

  get trackedSeries(): number {
    return this.series.size;
  }

  private budgetFor(input: EventInput, now: number): TokenBucket {
    const key = `${objectIdentity(input.regarding)}\u0000${input.reason}`;
    let bucket = this.budgets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.options.perObjectReason, now);
      this.budgets.set(key, bucket);
    }
    return bucket;
  }
}

function objectIdentity(ref: EventObjectReference): string {
  return ref.uid ?? `${ref.apiVersion}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

function seriesKey(input: EventInput): string {
  return [objectIdentity(input.regarding), input.type, input.reason, input.action, input.note].join('\u0000');
}
