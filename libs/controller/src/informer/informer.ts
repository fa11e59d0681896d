import { KubeApiError } from '../kube/kube-api-error.js';
import type { KubeObject } from '../kube/kube-object.js';
import { apiVersionOf, collectionPath, resourceName } from '../kube/resource-type.js';
import type { WatchRestartReason } from '../observability/controller-metrics.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import type { ObjectEvent, ObjectEventHandler, ObjectEventSource } from '../queue/object-event.js';
import { objectKey } from '../queue/request-key.js';
import { abortableSleep } from '../util/abortable-sleep.js';
import { deferred } from '../util/deferred.js';
import { exponentialDelay, withJitter } from '../util/backoff.js';
import { decodesProtobuf } from '../kube/protobuf/kube-protobuf.js';
import { resolveInformerTimings, type InformerOptions, type ObjectEncoding, type ResolvedInformerTimings } from './informer-options.js';
import { listAllPages } from './list-all-pages.js';
import { namespaceIndex, namespaceIndexName, ObjectStore } from './object-store.js';
import { runWatchSession, type WatchEnd, type WatchEventType, type WatchSessionOptions } from './watch-session.js';

/** What the informer itself went through; metrics and logs subscribe, and tests assert on these. */
export type InformerLifecycleEvent =
  /** The cache was filled: streamed by a watch (`pages` 0) or listed page by page. */
  | {
      readonly type: 'listed';
      readonly via: 'stream' | 'pages';
      readonly items: number;
      readonly pages: number;
      readonly resourceVersion: string;
    }
  | { readonly type: 'list-failed'; readonly error: string; readonly retryInMs: number }
  /** The server accepted a watch from this resourceVersion. */
  | { readonly type: 'watch-started'; readonly resourceVersion: string }
  | { readonly type: 'watch-ended'; readonly reason: WatchRestartReason; readonly error?: string; readonly retryInMs: number }
  | { readonly type: 'resynced'; readonly objects: number };

export type LifecycleHandler = (event: InformerLifecycleEvent) => void;

/** A watch shorter than this that ends "cleanly" is treated as a failure, so a flapping server is not hammered. */
const minHealthyWatchMs = 1000;

/**
 * List + watch for one resource into an indexed cache. Unlike client-node 2.x's informer it never stops on its
 * own: every watch error leads to a relist after a jittered backoff, 410 Gone to an immediate relist, a silent
 * watch is cut by a watchdog, and the cache is resynced and relisted periodically (all with jitter).
 */
export class Informer<T extends KubeObject> implements ObjectEventSource<T> {
  readonly store: ObjectStore<T>;
  readonly name: string;
  private readonly timings: ResolvedInformerTimings;
  private readonly encoding: ObjectEncoding;
  private readonly handlers = new Set<ObjectEventHandler<T>>();
  private readonly lifecycleHandlers = new Set<LifecycleHandler>();
  private readonly logger: Logger;
  private readonly stopController = new AbortController();
  private sessionController: AbortController | undefined;
  private running: Promise<void> | undefined;
  private timers: NodeJS.Timeout[] = [];
  private synced = false;
  private readonly syncedSignal = deferred();
  /** Set once the server refused a streaming list's parameters: it cannot stream, so do not ask again. */
  private streamingRefused: boolean;

  constructor(private readonly options: InformerOptions<T>) {
    this.timings = resolveInformerTimings(options as InformerOptions<KubeObject>);
    this.name = resourceName(options.resource);
    const protobuf = decodesProtobuf(apiVersionOf(options.resource), options.resource.kind);
    this.encoding = options.encoding ?? (protobuf ? 'protobuf' : 'json');
    if (this.encoding === 'protobuf' && !protobuf) {
      throw new Error(`informer ${this.name}: encoding protobuf: ${options.resource.kind} has no protobuf schema here; expected json`);
    }
    this.logger = (options.logger ?? silentLogger()).child({ informer: this.name });
    this.store = new ObjectStore<T>(
      { [namespaceIndexName]: namespaceIndex, ...options.indexers },
      options.freezeObjects === undefined ? {} : { freeze: options.freezeObjects },
    );
    this.streamingRefused = options.initialList === 'pages';
    options.metrics?.registerInformer(this.name);
  }

  /** Like client-go's AddEventHandler, a late subscriber first gets an `added` for every object already cached. */
  subscribe(handler: ObjectEventHandler<T>): () => void {
    this.handlers.add(handler);
    for (const object of this.store.list()) this.deliver(handler, { type: 'added', object });
    return () => this.handlers.delete(handler);
  }

  onLifecycle(handler: LifecycleHandler): () => void {
    this.lifecycleHandlers.add(handler);
    return () => this.lifecycleHandlers.delete(handler);
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list has filled the cache. */
  waitForSync(): Promise<void> {
    return this.syncedSignal.promise;
  }

  start(): void {
    if (this.running || this.stopController.signal.aborted) return;
    this.running = this.run();
    this.schedule(this.timings.resyncPeriodMs, () => this.resync());
    this.schedule(this.timings.relistPeriodMs, () => this.sessionController?.abort('relist-period'));
  }

  async stop(): Promise<void> {
    this.stopController.abort('stopped');
    for (const timer of this.timers) clearTimeout(timer);
    await this.running;
  }

  private async run(): Promise<void> {
    const stop = this.stopController.signal;
    let failures = 0;
    const nextBackoffMs = () => withJitter(exponentialDelay(this.timings.backoff, failures++), 0.5);
    while (!stop.aborted) {
      let started = performance.now();
      let end: WatchEnd;
      try {
        end = this.streamingRefused ? await this.watchOnce(await this.relist()) : await this.streamList();
      } catch (error) {
        if (stop.aborted) return;
        const retryInMs = nextBackoffMs();
        this.emitLifecycle({ type: 'list-failed', error: (error as Error).message, retryInMs });
        await abortableSleep(retryInMs, stop);
        continue;
      }
      for (;;) {
        if (stop.aborted) return;
        const healthy = end.events > 0 || performance.now() - started >= minHealthyWatchMs;
        if (healthy) failures = 0;
        // A server-side timeout, or a watchdog cut, resumes from where it was: nothing was missed.
        const resume = (end.reason === 'closed' && healthy) || end.reason === 'silent';
        const retryInMs = resume || end.reason === 'gone' || end.reason === 'relist-period' ? 0 : nextBackoffMs();
        this.watchEnded(end, retryInMs);
        await abortableSleep(retryInMs, stop);
        if (!resume || stop.aborted) break;
        started = performance.now();
        end = await this.watchOnce(end.resourceVersion);
      }
    }
  }

  /**
   * Fills the cache from a watch that streams the current state first, then goes on watching on the same
   * connection. Whatever ends it before the initial events are complete falls back to a paged list and a watch
   * (as client-go's reflector does: progress beats waiting for a stream); a refusal of the parameters (400 or 422)
   * means this server cannot stream, so it is not asked again.
   */
  private async streamList(): Promise<WatchEnd> {
    // The initial events go into the cache as they arrive, so storing and delivering them overlaps the transfer
    // instead of following it; an object the cache held that the stream did not bring is deleted at the bookmark.
    // Until then the cache may mix older and newer objects, as any cache being filled does: synced waits for the end.
    const streamed = new Set<string>();
    let complete = false;
    const end = await this.watchOnce(undefined, {
      onEvent: (type, object) => {
        const key = objectKey(object);
        if (!complete) {
          if (type === 'DELETED') streamed.delete(key);
          else streamed.add(key);
        }
        this.apply(type, object, key);
      },
      onInitialEventsEnd: (resourceVersion) => {
        complete = true;
        for (const object of this.store.retainOnly(streamed)) this.emit({ type: 'deleted', object });
        this.listed({ via: 'stream', items: streamed.size, pages: 0, resourceVersion });
        streamed.clear();
      },
    });
    if (complete || end.reason === 'stopped' || end.reason === 'relist-period') return end;
    const refused = end.error instanceof KubeApiError && (end.error.statusCode === 400 || end.error.statusCode === 422);
    if (refused) this.streamingRefused = true;
    this.logger.log(refused ? 'info' : 'debug', 'streaming list ended before its initial events; listing page by page', {
      reason: end.reason,
      ...(end.error ? { error: end.error.message } : {}),
    });
    return this.watchOnce(await this.relist());
  }

  private async relist(): Promise<string> {
    const { resource } = this.options;
    const list = await listAllPages<T>(
      this.options.client,
      collectionPath(resource, this.options.namespace),
      this.selectors(),
      this.timings.pageSize,
      this.encoding,
      this.stopController.signal,
    );
    // JSON list items of built-in kinds come without apiVersion and kind; watch events carry them. Make both alike
    // (the items were just decoded and are not shared, so they are completed in place). Protobuf items have them.
    if (this.encoding === 'json') {
      const apiVersion = apiVersionOf(resource);
      for (const item of list.items) Object.assign(item, { apiVersion, kind: resource.kind });
    }
    this.filled(list.items, { via: 'pages', pages: list.pages, resourceVersion: list.resourceVersion });
    return list.resourceVersion;
  }

  /** Replaces the cache with a complete state, reports what changed and marks the informer synced. */
  private filled(items: T[], how: { via: 'pages'; pages: number; resourceVersion: string }): void {
    const diff = this.store.replace(items);
    for (const object of diff.added) this.emit({ type: 'added', object });
    for (const { old, object } of diff.updated) this.emit({ type: 'updated', old, object });
    for (const object of diff.deleted) this.emit({ type: 'deleted', object });
    this.listed({ ...how, items: items.length });
  }

  private listed(how: { via: 'stream' | 'pages'; items: number; pages: number; resourceVersion: string }): void {
    this.options.metrics?.relisted(this.name);
    this.emitLifecycle({ type: 'listed', ...how });
    if (!this.synced) {
      this.synced = true;
      this.syncedSignal.resolve();
    }
  }

  /** One watch from `resourceVersion`, or, without one, a watch that streams the current state first. */
  private watchOnce(
    resourceVersion: string | undefined,
    handlers: Pick<WatchSessionOptions<T>, 'onEvent' | 'onInitialEventsEnd'> = { onEvent: (type, object) => this.apply(type, object) },
  ): Promise<WatchEnd> {
    this.sessionController = new AbortController();
    const { resource } = this.options;
    return runWatchSession<T>({
      client: this.options.client,
      path: collectionPath(resource, this.options.namespace),
      encoding: this.encoding,
      query: { ...this.selectors(), timeoutSeconds: Math.round(withJitter(this.timings.watchTimeoutSeconds, 1)) },
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      silenceMs: this.timings.watchSilenceMs,
      // Either stop() or a periodic relist ends the session; stop() may have come before this session existed.
      signal: AbortSignal.any([this.stopController.signal, this.sessionController.signal]),
      ...handlers,
      onOpen: () => this.emitLifecycle({ type: 'watch-started', resourceVersion: resourceVersion ?? '' }),
    });
  }

  private apply(type: WatchEventType, object: T, key = objectKey(object)): void {
    if (type === 'DELETED') {
      const old = this.store.remove(key);
      this.emit({ type: 'deleted', object: old ?? object });
      return;
    }
    const existing = this.store.get(key);
    if (existing?.metadata.resourceVersion === object.metadata.resourceVersion) return;
    this.store.upsert(object, key);
    this.emit(existing ? { type: 'updated', old: existing, object } : { type: 'added', object });
  }

  private watchEnded(end: WatchEnd, retryInMs: number): void {
    if (end.reason === 'stopped') return;
    this.options.metrics?.watchRestarted(this.name, end.reason);
    const event = { type: 'watch-ended' as const, reason: end.reason, retryInMs, ...(end.error ? { error: end.error.message } : {}) };
    this.emitLifecycle(event);
  }

  private resync(): void {
    if (!this.synced) return;
    const objects = this.store.list();
    for (const object of objects) this.emit({ type: 'resynced', object });
    this.emitLifecycle({ type: 'resynced', objects: objects.length });
  }

  /** Runs `action` every `periodMs` plus up to 10 % jitter, re-drawn each time. */
  private schedule(periodMs: number, action: () => void): void {
    if (periodMs <= 0) return;
    const slot = this.timers.length;
    const arm = () => {
      this.timers[slot] = setTimeout(
        () => {
          action();
          arm();
        },
        withJitter(periodMs, 0.1),
      );
    };
    arm();
  }

  private selectors() {
    return { labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector };
  }

  private emit(event: ObjectEvent<T>): void {
    for (const handler of this.handlers) this.deliver(handler, event);
  }

  private deliver(handler: ObjectEventHandler<T>, event: ObjectEvent<T>): void {
    try {
      handler(event);
    } catch (error) {
      this.logger.error('event handler threw', { error: (error as Error).message, event: event.type });
    }
  }

  private emitLifecycle(event: InformerLifecycleEvent): void {
    const level = event.type === 'list-failed' || (event.type === 'watch-ended' && event.reason === 'error') ? 'warn' : 'debug';
    if (this.logger.isLevelEnabled(level)) this.logger.log(level, `informer ${event.type}`, event);
    for (const handler of this.lifecycleHandlers) handler(event);
  }
}
