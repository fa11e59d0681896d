import { RetryRateLimiter } from './retry-rate-limiter.js';

/** What the queue reports to metrics; every method is optional so tests can watch just one thing. */
export interface WorkQueueObserver {
  depth?(depth: number): void;
  /** Seconds a key waited between being queued and being handed to a worker. */
  waited?(seconds: number): void;
  added?(): void;
  retried?(): void;
}

export interface WorkQueueOptions {
  readonly rateLimiter?: RetryRateLimiter;
  readonly observer?: WorkQueueObserver;
}

/**
 * A queue of keys, modelled on client-go's workqueue: a key is queued at most once however often it is added
 * (level-based: the reconciler reads the latest state, so intermediate events need no replay), and a key being
 * processed is never handed out again until `done` is called; if it was added meanwhile it is re-queued then.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  /** Keys that need processing, with the time they became dirty (for the queue-latency metric). */
  private readonly dirty = new Map<string, number>();
  private readonly processing = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private readonly rateLimiter: RetryRateLimiter;
  private readonly observer: WorkQueueObserver;
  private shuttingDown = false;
  private dispatchScheduled = false;

  constructor(options: WorkQueueOptions = {}) {
    this.rateLimiter = options.rateLimiter ?? new RetryRateLimiter();
    this.observer = options.observer ?? {};
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.observer.added?.();
    this.dirty.set(key, performance.now());
    if (this.processing.has(key)) return;
    this.enqueue(key);
  }

  /** Adds the key after `delayMs`; when the key is already waiting, the earlier of the two times wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + delayMs;
    const existing = this.delayed.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, { at, timer });
  }

  /** Re-adds a failed key after its backoff; returns the delay chosen. */
  addRateLimited(key: string): number {
    const delayMs = this.rateLimiter.when(key);
    this.observer.retried?.();
    this.addAfter(key, delayMs);
    return delayMs;
  }

  /** Resets the key's backoff (after success or a terminal failure). */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** Resolves with the next key, or `undefined` once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(this.handOut(key));
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks the key finished; if it was added while processing, it is queued again now. */
  done(key: string): void {
    if (!this.processing.delete(key)) return;
    if (this.dirty.has(key) && !this.shuttingDown) this.enqueue(key);
  }

  /** Stops handing out work: waiting and future `get` calls resolve `undefined`, delayed adds are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.queue.length = 0;
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
    this.observer.depth?.(0);
  }

  get depth(): number {
    return this.queue.length;
  }

  /** performance.now() when the key waiting longest to be handed out became dirty; undefined when none waits. */
  get oldestWaitingSince(): number | undefined {
    const first = this.queue[0];
    return first === undefined ? undefined : this.dirty.get(first);
  }

  private enqueue(key: string): void {
    this.queue.push(key);
    this.observer.depth?.(this.queue.length);
    this.scheduleDispatch();
  }

  /**
   * Hands queued keys to waiting workers in a microtask, not inside `add`: a key handed out at once would count as
   * processing, so a second add of it in the same synchronous batch (one event mapping to a key through both its
   * old and new object, a relist emitting many events) would run it twice instead of being folded in.
   */
  private scheduleDispatch(): void {
    if (this.dispatchScheduled || this.waiters.length === 0) return;
    this.dispatchScheduled = true;
    queueMicrotask(() => {
      this.dispatchScheduled = false;
      while (this.waiters.length > 0 && this.queue.length > 0) this.waiters.shift()!(this.handOut(this.queue.shift()!));
    });
  }

  private handOut(key: string): string {
    const since = this.dirty.get(key);
    this.dirty.delete(key);
    this.processing.add(key);
    if (since !== undefined) this.observer.waited?.((performance.now() - since) / 1000);
    this.observer.depth?.(this.queue.length);
    return key;
  }
}
