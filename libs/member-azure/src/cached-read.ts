import { classifyArmError, type ArmFailure } from '@fleet-gateway/arm-runtime';
import type { BackoffSettings } from './connection-watch.js';

/** A value read from Azure, when, and — after a failed re-read — since when it is stale and why. */
export interface Snapshot<T> {
  /** Undefined only when no read ever succeeded. */
  readonly value?: T;
  readonly readAt?: Date;
  readonly stale?: Staleness;
}

export interface Staleness {
  readonly since: Date;
  readonly failure: ArmFailure;
}

/**
 * One Azure read kept for a TTL. Concurrent callers share one request; a failed read keeps the last value (fail-static)
 * and is not retried before a backoff (at most the TTL), so an outage costs one request per backoff, not per caller.
 */
export class CachedRead<T> {
  private value?: T;
  private readAt?: number;
  private stale?: Staleness;
  private failures = 0;
  private retryAt = 0;
  private inflight?: Promise<void>;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly now: () => number,
  ) {}

  /** The value, read again when the TTL has passed (or `force`), unless a failed read's backoff is still running. */
  async get(ttlMs: number, backoff: BackoffSettings, force = false): Promise<Snapshot<T>> {
    const now = this.now();
    const expired = this.readAt === undefined || now - this.readAt >= ttlMs;
    if ((force || expired) && now >= this.retryAt) await (this.inflight ??= this.refresh(ttlMs, backoff));
    return this.snapshot();
  }

  /** Like `get`, but also reads again when the value is older than `maxAgeMs` (the caller knows Azure has moved on). */
  getFresherThan(maxAgeMs: number, ttlMs: number, backoff: BackoffSettings): Promise<Snapshot<T>> {
    return this.get(ttlMs, backoff, this.readAt === undefined || this.now() - this.readAt >= maxAgeMs);
  }

  /** Replaces the value with one the caller got from Azure otherwise (e.g. a write's answer). */
  set(value: T): void {
    this.value = value;
    this.readAt = this.now();
  }

  snapshot(): Snapshot<T> {
    return {
      ...(this.value === undefined ? {} : { value: this.value }),
      ...(this.readAt === undefined ? {} : { readAt: new Date(this.readAt) }),
      ...(this.stale === undefined ? {} : { stale: this.stale }),
    };
  }

  /** When the next read will be made (for requeues): the TTL's end, or the failed read's backoff. */
  nextReadAt(ttlMs: number): number {
    return Math.max(this.retryAt, (this.readAt ?? 0) + ttlMs);
  }

  private async refresh(ttlMs: number, backoff: BackoffSettings): Promise<void> {
    try {
      const value = await this.read();
      this.value = value;
      this.readAt = this.now();
      this.stale = undefined;
      this.failures = 0;
      this.retryAt = 0;
    } catch (error) {
      this.failures += 1;
      const at = this.now();
      this.stale = { since: this.stale?.since ?? new Date(at), failure: classifyArmError(error) };
      this.retryAt = at + Math.min(ttlMs, backoff.initialMs * 2 ** (this.failures - 1), backoff.maxMs);
    } finally {
      this.inflight = undefined;
    }
  }
}
