import type { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import type { ResourceType } from '../kube/resource-type.js';
import type { ControllerMetrics } from '../observability/controller-metrics.js';
import type { Logger } from '../observability/logger.js';
import type { BackoffOptions } from '../util/backoff.js';
import type { IndexFunction } from './object-store.js';

/** How objects travel from the API server: JSON, or its protobuf encoding (built-in kinds only). */
export type ObjectEncoding = 'json' | 'protobuf';

export interface InformerOptions<T extends KubeObject> {
  readonly client: KubeClient;
  readonly resource: ResourceType;
  /** Only this namespace; all namespaces when omitted. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /**
   * How the cache is filled: `stream` (default) opens a watch with `sendInitialEvents=true` — the API server streams
   * every object and marks the end with a bookmark annotated `k8s.io/initial-events-end`, then the same watch goes on
   * (WatchList, KEP-3157, as client-go 0.36 does by default) — and falls back to a paged list on any failure, for
   * good once the server refuses the parameters (400/422, e.g. the WatchList feature gate off); `pages` always lists
   * page by page.
   */
  readonly initialList?: 'stream' | 'pages';
  /**
   * Default `protobuf` for a built-in kind this library has a schema for (`decodesProtobuf`), as client-go asks for
   * protobuf where it can: the API server encodes it in about half the time of JSON. Objects come out exactly as JSON would have given them. `json` for
   * everything else (custom resources have no protobuf encoding).
   */
  readonly encoding?: ObjectEncoding;
  /** Items per list page. Default 500. */
  readonly pageSize?: number;
  /** Deep-freeze cached objects (see ObjectStore). Default on; an agent's process turns it off in production. */
  readonly freezeObjects?: boolean;
  /** Secondary indexes besides the built-in `namespace` one. */
  readonly indexers?: Readonly<Record<string, IndexFunction<T>>>;
  /** Re-deliver every cached object this often (plus up to 10 % jitter). Default 10 minutes; 0 turns it off. */
  readonly resyncPeriodMs?: number;
  /** Replace the cache from a fresh list this often (plus jitter), as a guard against any missed event. Default 30 min; 0 off. */
  readonly relistPeriodMs?: number;
  /** Server-side watch timeout; each watch asks for a random value between this and twice this. Default 300 s. */
  readonly watchTimeoutSeconds?: number;
  /**
   * Restart a watch that delivered nothing (not even a bookmark) for this long. It must exceed the gap between
   * bookmarks; with the watch cache off the server sends none, so the default is longer than the longest
   * server-side timeout: 2 × watchTimeoutSeconds + 60 s.
   */
  readonly watchSilenceMs?: number;
  /** Backoff before relisting after an error. Default 1 s doubling to 30 s, with 50 % jitter. */
  readonly backoff?: BackoffOptions;
  readonly metrics?: ControllerMetrics;
  readonly logger?: Logger;
}

export interface ResolvedInformerTimings {
  readonly pageSize: number;
  readonly resyncPeriodMs: number;
  readonly relistPeriodMs: number;
  readonly watchTimeoutSeconds: number;
  readonly watchSilenceMs: number;
  readonly backoff: BackoffOptions;
}

export function resolveInformerTimings(options: InformerOptions<KubeObject>): ResolvedInformerTimings {
  const watchTimeoutSeconds = options.watchTimeoutSeconds ?? 300;
  const timings: ResolvedInformerTimings = {
    pageSize: options.pageSize ?? 500,
    resyncPeriodMs: options.resyncPeriodMs ?? 10 * 60_000,
    relistPeriodMs: options.relistPeriodMs ?? 30 * 60_000,
    watchTimeoutSeconds,
    watchSilenceMs: options.watchSilenceMs ?? (2 * watchTimeoutSeconds + 60) * 1000,
    backoff: options.backoff ?? { baseMs: 1000, maxMs: 30_000 },
  };
  for (const [name, value] of Object.entries({ ...timings, ...timings.backoff })) {
    if (typeof value === 'number' && !(Number.isFinite(value) && value >= 0)) {
      throw new Error(`informer ${options.resource.plural}: ${name} must be a non-negative number, got ${value}`);
    }
  }
  if (timings.pageSize < 1) throw new Error(`informer ${options.resource.plural}: pageSize must be >= 1, got ${timings.pageSize}`);
  return timings;
}
