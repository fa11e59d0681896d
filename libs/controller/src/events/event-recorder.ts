import type { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { apiVersionOf, collectionPath, objectPath, type ResourceType } from '../kube/resource-type.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { formatMicroTime } from '../util/micro-time.js';
import {
  defaultEventAggregatorOptions,
  EventAggregator,
  type EventAggregatorOptions,
  type EventDecision,
  type EventInput,
  type EventObjectReference,
  type SeriesUpdate,
} from './event-aggregator.js';

export interface EventRecorderOptions {
  readonly client: KubeClient;
  /** e.g. `example.com/hub-gateway`; events.k8s.io requires it. */
  readonly reportingController: string;
  /** This replica, e.g. the pod name. */
  readonly reportingInstance: string;
  readonly aggregation?: EventAggregatorOptions;
  /** Namespace for Events about cluster-scoped objects. Default `default`. */
  readonly defaultNamespace?: string;
  readonly logger?: Logger;
}

const maxNoteBytes = 1024;

type CreateDecision = Extract<EventDecision, { kind: 'create' }>;

const eventResource: ResourceType = { group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true };

/**
 * Records events.k8s.io/v1 Events. Repeats become a series on one Event (written at most once per flush interval),
 * new Events are rate-limited per object and reason, and recording never blocks or fails a reconcile: write
 * errors are logged and dropped, as client-go's recorder does.
 */
export class EventRecorder {
  private readonly aggregator: EventAggregator;
  private readonly logger: Logger;
  private readonly pending = new Set<Promise<void>>();
  /** Creates still in flight, by Event name: a series update must not overtake the create of its Event. */
  private readonly creating = new Map<string, Promise<boolean>>();
  private readonly flushTimer: NodeJS.Timeout;
  private droppedCount = 0;

  constructor(private readonly options: EventRecorderOptions) {
    const aggregation = options.aggregation ?? defaultEventAggregatorOptions;
    this.aggregator = new EventAggregator(aggregation, options.defaultNamespace);
    this.logger = options.logger ?? silentLogger();
    this.flushTimer = setInterval(() => void this.flush(false), aggregation.seriesFlushMs);
    this.flushTimer.unref();
  }

  /** Events not written because their object and reason ran out of budget. */
  get dropped(): number {
    return this.droppedCount;
  }

  record(regarding: KubeObject, type: EventInput['type'], reason: string, action: string, note: string): void {
    const input: EventInput = { regarding: referenceTo(regarding), type, reason, action, note: truncate(note) };
    const decision = this.aggregator.observe(input, Date.now());
    if (decision.kind === 'rate-limited') {
      this.droppedCount += 1;
      this.logger.debug('event rate-limited', { reason, object: input.regarding.name });
      return;
    }
    if (decision.kind !== 'create') return;
    const creation = this.create(input, decision);
    this.creating.set(decision.eventName, creation);
    this.track(creation.then(() => void this.creating.delete(decision.eventName)));
  }

  /** Writes series counts that are due (all of them with `force`) and waits for every write in flight. */
  async flush(force = true): Promise<void> {
    for (const update of this.aggregator.dueSeriesUpdates(Date.now(), force)) this.track(this.patchSeries(update));
    await Promise.all([...this.pending]);
  }

  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush(true);
  }

  /** Resolves true once the Event exists, false if it could not be created. */
  private async create(input: EventInput, { eventName, namespace, eventTime }: CreateDecision): Promise<boolean> {
    const body = {
      apiVersion: apiVersionOf(eventResource),
      kind: eventResource.kind,
      metadata: { name: eventName, namespace },
      eventTime: formatMicroTime(new Date(eventTime)),
      reportingController: this.options.reportingController,
      reportingInstance: this.options.reportingInstance,
      action: input.action,
      reason: input.reason,
      regarding: input.regarding,
      note: input.note,
      type: input.type,
    };
    try {
      await this.options.client.create(collectionPath(eventResource, namespace), body);
      return true;
    } catch (error) {
      this.aggregator.forget(eventName);
      this.logger.warn('could not create event', { reason: input.reason, error: (error as Error).message });
      return false;
    }
  }

  private async patchSeries(update: SeriesUpdate): Promise<void> {
    if ((await this.creating.get(update.eventName)) === false) return;
    const path = objectPath(eventResource, update.eventName, update.namespace);
    const body = { series: { count: update.count, lastObservedTime: formatMicroTime(new Date(update.lastObservedTime)) } };
    try {
      await this.options.client.patch(path, body, 'merge');
    } catch (error) {
      this.aggregator.forget(update.eventName);
      this.logger.warn('could not update event series', { event: update.eventName, error: (error as Error).message });
    }
  }

  private track(write: Promise<void>): void {
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }
}

export function referenceTo(object: KubeObject): EventObjectReference {
  const { name, namespace, uid } = object.metadata;
  if (!object.apiVersion || !object.kind) {
    throw new Error(`event about ${namespace ?? ''}/${name}: object has no apiVersion/kind; expected both to be set`);
  }
  return { apiVersion: object.apiVersion, kind: object.kind, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) };
}

function truncate(note: string): string {
  if (Buffer.byteLength(note) <= maxNoteBytes) return note;
  return (
    Buffer.from(note)
      .subarray(0, maxNoteBytes - 3)
      .toString('utf8')
      .replace(/\uFFFD$/, '') + '...'
  );
}
