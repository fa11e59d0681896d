import { reconcileLogger, silentLogger, type Logger, type ReconcileLog } from '../observability/logger.js';
import type { ControllerMetrics, ReconcileObserver } from '../observability/controller-metrics.js';
import type { OutcomeLabel, ReconcileOutcome } from './reconcile-outcome.js';
import { RetryRateLimiter, type RetryRateLimiterOptions } from './retry-rate-limiter.js';
import { WorkQueue } from './work-queue.js';
import { objectKey, parseRequestKey, requestKey, type ReconcileRequest } from './request-key.js';
import type { ObjectEventSource } from './object-event.js';

export interface ReconcileContext {
  /** Carries reconcileId, controller, kind, namespace and name on every line. */
  readonly logger: Logger;
  readonly reconcileId: string;
  /** Aborted when shutdown gives up waiting for this reconcile (or for work it detached). */
  readonly signal: AbortSignal;
  /**
   * Work this reconcile started and does not wait for (it must end when `signal` aborts): when it settles, the key is
   * reconciled again to take its result; stop waits for it as for running reconciles, within the same drain bound.
   */
  detach(work: Promise<unknown>): void;
}

export type Reconciler = (request: ReconcileRequest, context: ReconcileContext) => Promise<ReconcileOutcome>;

export interface ControllerOptions {
  readonly name: string;
  /** The kind of the object a request names, for logs. */
  readonly kind: string;
  readonly reconcile: Reconciler;
  /** How many different keys may reconcile at once (the same key never runs twice at once). Default 1. */
  readonly concurrency?: number;
  readonly rateLimiter?: RetryRateLimiterOptions;
  readonly logger?: Logger;
  readonly metrics?: ControllerMetrics;
}

/** Maps a changed object to the requests it affects; the default maps an object to itself. */
export type RequestMapper<T> = (object: T) => readonly ReconcileRequest[];

export interface StopResult {
  /** Reconciles still running when the drain bound ran out; their signal was aborted. */
  readonly abandoned: number;
}

/**
 * A work queue plus a bounded pool of workers running one reconciler. Events only enqueue keys; the reconciler
 * reads current state itself. Workers start with `start()` (a non-leader never calls it, so its caches stay warm
 * while it writes nothing).
 */
export class Controller {
  readonly name: string;
  private readonly queue: WorkQueue;
  private readonly logger: Logger;
  private readonly observer: ReconcileObserver | undefined;
  private readonly abort = new AbortController();
  /** Running reconciles, with performance.now() when each began. */
  /** Reconciles running, with their key and since when. */
  private readonly inFlight = new Map<Promise<void>, { readonly key: string; readonly since: number }>();
  /** Work detached from reconciles (ReconcileContext.detach) that has not settled, and since when it runs. */
  private readonly detached = new Map<Promise<unknown>, { readonly key: string; readonly since: number }>();
  private workers: Promise<void>[] = [];
  private stopping = false;
  /** performance.now() when a reconcile last finished, or when the workers started. */
  private lastProgressAt = 0;

  constructor(private readonly options: ControllerOptions) {
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`controller ${options.name}: concurrency must be a positive integer, got ${concurrency}`);
    }
    this.name = options.name;
    this.logger = options.logger ?? silentLogger();
    this.observer = options.metrics?.registerController(options.name);
    this.queue = new WorkQueue({
      rateLimiter: new RetryRateLimiter(options.rateLimiter),
      ...(options.metrics ? { observer: options.metrics.queueObserver(options.name) } : {}),
    });
  }

  enqueue(request: ReconcileRequest): void {
    this.queue.add(requestKey(request));
  }

  /** Subscribes to a source; each event enqueues the requests `map` returns (by default the object itself). */
  watch<T extends { metadata?: { name?: string; namespace?: string } }>(source: ObjectEventSource<T>, map?: RequestMapper<T>): () => void {
    // An update's old and new object have one key, so without a mapper the new one alone names the request.
    if (!map) return source.subscribe((event) => this.queue.add(objectKey(event.object)));
    return source.subscribe((event) => {
      for (const request of map(event.object)) this.enqueue(request);
      if (event.type === 'updated') for (const request of map(event.old)) this.enqueue(request);
    });
  }

  start(): void {
    if (this.workers.length > 0) return;
    const concurrency = this.options.concurrency ?? 1;
    this.lastProgressAt = performance.now();
    this.workers = Array.from({ length: concurrency }, () => this.runWorker());
  }

  /**
   * For /healthz: why this controller is stuck, or undefined. Stuck means work has waited (a request queued, or a
   * reconcile running, counting the work a reconcile detached) longer than `boundMs` while no reconcile finished within
   * `boundMs`: what holds the workers or the keys does not end, and only a restart frees them. A controller that does not run (a standby, or
   * stopping) is never stuck.
   */
  stalled(boundMs: number, now: number = performance.now()): string | undefined {
    if (this.workers.length === 0 || this.stopping || now - this.lastProgressAt <= boundMs) return undefined;
    // Detached work is the rest of a reconcile: one that never ends holds its key as a running reconcile would. A key
    // reconciled again while its detached work runs counts once, since the older of the two.
    const sinceByKey = new Map<string, number>();
    for (const { key, since } of [...this.inFlight.values(), ...this.detached.values()]) sinceByKey.set(key, Math.min(since, sinceByKey.get(key) ?? since));
    const running = [...sinceByKey.values()];
    const oldestRun = running.length > 0 ? Math.min(...running) : undefined;
    const oldestWait = this.queue.oldestWaitingSince;
    const busySince = Math.min(oldestRun ?? Infinity, oldestWait ?? Infinity);
    if (!(now - busySince > boundMs)) return undefined;
    const seconds = (since: number) => Math.round((now - since) / 1000);
    const parts = [
      ...(oldestWait !== undefined ? [`${this.queue.depth} request(s) waiting, the oldest for ${seconds(oldestWait)} s`] : []),
      ...(oldestRun !== undefined ? [`${running.length} reconcile(s) running, the oldest for ${seconds(oldestRun)} s`] : []),
    ];
    return `controller ${this.name}: ${parts.join(', ')}; no reconcile finished in the last ${seconds(this.lastProgressAt)} s`;
  }

  /**
   * Stops taking work, waits up to `drainTimeoutMs` for running reconciles and the work they detached, then aborts the
   * rest and waits (within the same bound again) for what was detached to end on the abort.
   */
  async stop(drainTimeoutMs: number): Promise<StopResult> {
    this.stopping = true;
    this.queue.shutDown();
    const drained = Promise.all(this.workers).then(() => this.detachedSettled());
    const finished = await within(drained, drainTimeoutMs);
    if (finished) return { abandoned: 0 };
    const abandoned = this.inFlight.size + this.detached.size;
    this.abort.abort(new Error(`controller ${this.name} stopped`));
    await within(this.detachedSettled(), drainTimeoutMs);
    return { abandoned };
  }

  /** Work detached so far has settled, including work detached meanwhile by reconciles still running. */
  private async detachedSettled(): Promise<void> {
    while (this.detached.size > 0) await Promise.allSettled([...this.detached.keys()]);
  }

  get queueDepth(): number {
    return this.queue.depth;
  }

  private async runWorker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      const run = this.reconcileKey(key);
      this.inFlight.set(run, { key, since: performance.now() });
      try {
        await run;
      } finally {
        this.inFlight.delete(run);
        this.lastProgressAt = performance.now();
        this.queue.done(key);
      }
    }
  }

  private async reconcileKey(key: string): Promise<void> {
    const request = parseRequestKey(key);
    const log = reconcileLogger(this.logger, { controller: this.name, kind: this.options.kind, ...request });
    const context = new ReconcileRunContext(log, this.abort.signal, (work) => this.detach(key, work));
    const started = performance.now();
    let label: OutcomeLabel;
    try {
      const outcome = await this.options.reconcile(request, context);
      label = this.apply(key, outcome, log);
    } catch (error) {
      label = 'panic';
      this.queue.addRateLimited(key);
      log.log('error', 'reconcile threw; retrying with backoff', () => ({ error: describe(error) }));
    }
    this.observer?.reconciled(label, (performance.now() - started) / 1000);
  }

  private detach(key: string, work: Promise<unknown>): void {
    const tracked = work.then(
      () => undefined,
      () => undefined,
    );
    this.detached.set(tracked, { key, since: performance.now() });
    void tracked.then(() => {
      this.detached.delete(tracked);
      if (!this.stopping) this.queue.add(key);
    });
  }

  private apply(key: string, outcome: ReconcileOutcome, log: ReconcileLog): OutcomeLabel {
    switch (outcome.kind) {
      case 'done':
        this.queue.forget(key);
        log.log('debug', 'reconciled');
        break;
      case 'requeue-after':
        this.queue.forget(key);
        this.queue.addAfter(key, outcome.afterMs);
        log.log('info', 'requeued', () => ({ afterMs: outcome.afterMs, reason: outcome.reason }));
        break;
      case 'retry': {
        const delayMs = this.queue.addRateLimited(key);
        log.log('warn', 'reconcile failed; retrying', () => ({ error: outcome.error.message, delayMs }));
        break;
      }
      case 'terminal':
        this.queue.forget(key);
        log.log('error', 'reconcile failed; not retrying until the object changes', () => ({ error: outcome.error.message }));
        break;
    }
    return outcome.kind;
  }
}

/**
 * A reconcile's context: its logger and id made on first use (ReconcileLog). A class rather than an object literal
 * with getters, which V8 builds slowly, once per reconcile.
 */
class ReconcileRunContext implements ReconcileContext {
  constructor(
    private readonly log: ReconcileLog,
    readonly signal: AbortSignal,
    readonly detach: (work: Promise<unknown>) => void,
  ) {}

  get logger(): Logger {
    return this.log.logger;
  }

  get reconcileId(): string {
    return this.log.reconcileId;
  }
}

/** Whether `work` settled within `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) return { message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { message: String(error) };
}
