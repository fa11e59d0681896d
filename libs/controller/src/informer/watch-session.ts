import { isGone, KubeApiError } from '../kube/kube-api-error.js';
import type { KubeClient, QueryParams } from '../kube/kube-client.js';
import type { KubeObject, KubeStatus } from '../kube/kube-object.js';
import { decodeWatchEvent } from '../kube/protobuf/kube-protobuf.js';
import type { ObjectEncoding } from './informer-options.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** How a watch ended: the server closed it, 410 Gone, an error, the watchdog saw silence, or we asked it to stop. */
export type WatchEndReason = 'closed' | 'gone' | 'error' | 'silent' | 'relist-period' | 'stopped';

export interface WatchEnd {
  readonly reason: WatchEndReason;
  /** The last resourceVersion seen (from an event or a bookmark); where the next watch may resume. */
  readonly resourceVersion: string;
  readonly events: number;
  readonly error?: Error;
}

/** The annotation on the bookmark that ends a watch's initial events (`sendInitialEvents=true`). */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

export interface WatchSessionOptions<T extends KubeObject> {
  readonly client: KubeClient;
  readonly path: string;
  readonly query: QueryParams;
  readonly encoding: ObjectEncoding;
  /**
   * Where the watch starts. Without one it streams the current state first (`sendInitialEvents=true` with
   * `resourceVersionMatch=NotOlderThan`, a consistent read) and calls `onInitialEventsEnd` at the bookmark that ends it.
   */
  readonly resourceVersion?: string;
  readonly onInitialEventsEnd?: (resourceVersion: string) => void;
  /** Abort the watch when no line (event or bookmark) arrived for this long. */
  readonly silenceMs: number;
  readonly onEvent: (type: WatchEventType, object: T) => void;
  /** The server accepted the watch (HTTP 200); events may follow. */
  readonly onOpen: () => void;
  /** Aborting with reason 'stopped' or 'relist-period' ends the session with that reason. */
  readonly signal: AbortSignal;
}

interface WatchLine {
  readonly type?: string;
  readonly object?: unknown;
}

/**
 * Runs one watch from `resourceVersion` until it ends, and says why. A watchdog timer, reset by every line, aborts
 * a connection that went silent after `watchSilenceMs` — client-node 2.x's Watch has a fixed 30 s inactivity timeout,
 * which would reconnect every quiet watch twice a minute when the server sends no bookmarks (libs/controller README).
 */
export async function runWatchSession<T extends KubeObject>(options: WatchSessionOptions<T>): Promise<WatchEnd> {
  const local = new AbortController();
  const signal = AbortSignal.any([options.signal, local.signal]);
  let resourceVersion = options.resourceVersion ?? '';
  let events = 0;
  let ended: { reason: WatchEndReason; error?: Error } | undefined;
  const finish = (reason: WatchEndReason, error?: Error) => {
    ended ??= { reason, ...(error ? { error } : {}) };
    local.abort(reason);
  };
  // A line only notes its time; the watchdog timer, when it fires, waits out what is left of the silence since the
  // last line, so a burst of events costs no timer operation per event (at most one re-arm per silenceMs).
  let lastLineAt = performance.now();
  const onWatchdog = () => {
    const remainingMs = lastLineAt + options.silenceMs - performance.now();
    if (remainingMs > 0) watchdog = setTimeout(onWatchdog, remainingMs);
    else finish('silent');
  };
  let watchdog = setTimeout(onWatchdog, options.silenceMs);
  const undecodable = (what: string) => finish('error', new Error(`watch ${options.path}: ${what}`));
  const onLine = (line: string) => {
    let parsed: WatchLine;
    try {
      parsed = JSON.parse(line) as WatchLine;
    } catch {
      undecodable(`unparsable line ${line.slice(0, 200)}`);
      return;
    }
    handleLine(parsed);
  };
  const onFrame = (buf: Buffer, start: number, end: number) => {
    let parsed: WatchLine;
    try {
      parsed = decodeWatchEvent(buf, start, end);
    } catch (error) {
      undecodable(`undecodable event (${(error as Error).message})`);
      return;
    }
    handleLine(parsed);
  };
  const handleLine = ({ type, object }: WatchLine) => {
    if (ended) return;
    lastLineAt = performance.now();
    if (type === 'ERROR') {
      const status = (object ?? {}) as KubeStatus;
      finish(status.code === 410 ? 'gone' : 'error', KubeApiError.fromStatus(status.code ?? 0, status, 'WATCH', options.path));
      return;
    }
    const rv = (object as KubeObject | undefined)?.metadata?.resourceVersion;
    if (rv) resourceVersion = rv;
    if (type === 'BOOKMARK') {
      const annotations = (object as KubeObject | undefined)?.metadata?.annotations;
      if (annotations?.[initialEventsEndAnnotation] === 'true') options.onInitialEventsEnd?.(resourceVersion);
      return;
    }
    if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') {
      events += 1;
      options.onEvent(type, object as T);
    }
  };
  const query = {
    ...options.query,
    ...(options.resourceVersion === undefined
      ? { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }
      : { resourceVersion: options.resourceVersion }),
    allowWatchBookmarks: true,
  };
  try {
    if (options.encoding === 'protobuf') await options.client.watchFrames(options.path, query, { onFrame, onOpen: options.onOpen }, signal);
    else await options.client.watch(options.path, query, { onLine, onOpen: options.onOpen }, signal);
    finish('closed');
  } catch (error) {
    if (options.signal.aborted) finish(options.signal.reason === 'relist-period' ? 'relist-period' : 'stopped');
    else finish(isGone(error) ? 'gone' : 'error', error instanceof Error ? error : new Error(String(error)));
  } finally {
    clearTimeout(watchdog);
  }
  return { ...ended!, resourceVersion, events };
}
