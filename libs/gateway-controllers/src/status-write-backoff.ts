import { exponentialDelay, type BackoffOptions } from '@fleet-gateway/controller';

interface Failing {
  readonly failures: number;
  readonly dueAt: number;
}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Status writes that failed, per object: each is tried again after its own capped exponential backoff, and objects
 * not yet due are left out of a reconcile, so one object whose status the API server refuses (an admission policy,
 * a schema bound) costs one request per backoff step and never holds back the writes of the others.
 */
export class StatusWriteBackoff {
  private readonly failing = new Map<string, Failing>();

  constructor(private readonly options: BackoffOptions = DEFAULT_BACKOFF) {}

  /** Whether the object's status may be written now (never failed, or its backoff has passed). */
  isDue(key: string, now: number): boolean {
    return (this.failing.get(key)?.dueAt ?? 0) <= now;
  }

  /** Records a failed write; returns how long until the object is due again. */
  failed(key: string, now: number): number {
    const failures = (this.failing.get(key)?.failures ?? 0) + 1;
    const delay = exponentialDelay(this.options, failures - 1);
    this.failing.set(key, { failures, dueAt: now + delay });
    return delay;
  }

  succeeded(key: string): void {
    this.failing.delete(key);
  }

  /**
   * At the end of a reconcile: how long until the first of the keys starting with `prefix` is due; undefined when none
   * waits. A key already due was not tried in the reconcile that just ended (its object is gone or no longer this
   * Gateway's): it is forgotten, so it never requeues the Gateway.
   */
  nextDueIn(prefix: string, now: number): number | undefined {
    let next: number | undefined;
    for (const [key, { dueAt }] of this.failing) {
      if (!key.startsWith(prefix)) continue;
      if (dueAt <= now) this.failing.delete(key);
      else next = Math.min(next ?? Infinity, dueAt - now);
    }
    return next;
  }

  /** Forgets every key starting with `prefix` (a Gateway deleted). */
  forget(prefix: string): void {
    for (const key of this.failing.keys()) if (key.startsWith(prefix)) this.failing.delete(key);
  }
}
