import { Counter, Gauge, type LabelValues, type Registry } from 'prom-client';
import type { KubeClientObserver } from '../kube/kube-client.js';
import { requestRetryReasons } from '../kube/request-retry.js';
import { outcomeLabels, type OutcomeLabel } from '../queue/reconcile-outcome.js';
import type { WorkQueueObserver } from '../queue/work-queue.js';
import { BucketHistogram } from './bucket-histogram.js';

/** Why a watch was restarted; every reason has a counter from the start, so a zero is visible. */
export const watchRestartReasons = ['gone', 'error', 'silent', 'closed', 'relist-period'] as const;
export type WatchRestartReason = (typeof watchRestartReasons)[number];

/** Records one controller's reconciles: outcomes as deferred counts, durations through a label child resolved once. */
export interface ReconcileObserver {
  readonly reconciled: (outcome: OutcomeLabel, seconds: number) => void;
}

/**
 * All runtime metrics on one registry that the caller owns (never prom-client's global one, so two managers in one
 * process — as in tests — do not collide). Label sets are pre-created at zero when a controller, queue or
 * informer registers, so dashboards and alerts see a 0 instead of a missing series.
 */
export class ControllerMetrics {
  private readonly reconcileTotal: Counter<'controller' | 'outcome'>;
  private readonly reconcileDuration: BucketHistogram<'controller'>;
  private readonly queueDepth: Gauge<'name'>;
  private readonly queueLatency: BucketHistogram<'name'>;
  private readonly queueAdds: Counter<'name'>;
  private readonly queueRetries: Counter<'name'>;
  private readonly watchRestarts: Counter<'resource' | 'reason'>;
  private readonly relists: Counter<'resource'>;
  private readonly isLeader: Gauge<'lease'>;
  private readonly leaderTransitions: Counter<'lease'>;
  private readonly kubeRequestRetries: Counter<'client' | 'reason'>;
  /**
   * What hot paths (every event, every reconcile) counted since the last read, per metric: prom-client hashes the
   * label set on every `inc` or `set`, even through a child of `labels()`, so those paths count in a plain number and
   * the metric's `collect` hook, which prom-client runs before every read of the registry, hands the counts over.
   */
  private readonly pending = new Map<object, (() => void)[]>();

  constructor(readonly registry: Registry) {
    const pending = this.pending;
    function collect(this: object): void {
      for (const flush of pending.get(this) ?? []) flush();
    }
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers: [registry], collect });
    const gauge = <L extends string>(name: string, help: string, labelNames: L[]) => new Gauge<L>({ name, help, labelNames, registers: [registry], collect });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new BucketHistogram<L>(name, help, labelNames, buckets, registry);

    this.reconcileTotal = counter('controller_reconcile_total', 'Reconciles by controller and outcome (done, requeue-after, retry, terminal, panic).', [
      'controller',
      'outcome',
    ]);
    this.reconcileDuration = histogram(
      'controller_reconcile_duration_seconds',
      'Time spent in one reconcile.',
      ['controller'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    );
    this.queueDepth = gauge('workqueue_depth', 'Keys waiting.', ['name']);
    this.queueLatency = histogram(
      'workqueue_queue_duration_seconds',
      'Time a key waits in the queue before a worker takes it.',
      ['name'],
      [0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60],
    );
    this.queueAdds = counter('workqueue_adds_total', 'Keys added.', ['name']);
    this.queueRetries = counter('workqueue_retries_total', 'Keys re-added after a failure.', ['name']);
    this.watchRestarts = counter('informer_watch_restarts_total', 'Watch restarts by resource and reason (gone, error, silent, closed, relist-period).', [
      'resource',
      'reason',
    ]);
    this.relists = counter('informer_relists_total', 'Full lists by resource.', ['resource']);
    this.isLeader = gauge('leader_election_is_leader', '1 while this instance holds the lease.', ['lease']);
    this.leaderTransitions = counter('leader_election_transitions_total', 'Times this instance gained or lost the lease.', ['lease']);
    this.kubeRequestRetries = counter(
      'kube_client_request_retries_total',
      'API requests sent again by the KubeClient named `client`, by reason (throttled: 429; server-error: 5xx with Retry-After).',
      ['client', 'reason'],
    );
  }

  registerController(controller: string): ReconcileObserver {
    const totals = new Map(
      outcomeLabels.map((outcome) => {
        this.reconcileTotal.inc({ controller, outcome }, 0);
        return [outcome, this.deferredIncrements(this.reconcileTotal, { controller, outcome })] as const;
      }),
    );
    const duration = this.reconcileDuration.series({ controller });
    return {
      reconciled: (outcome, seconds) => {
        totals.get(outcome)!();
        duration(seconds);
      },
    };
  }

  /** An increment of `labels` that costs an addition; the counter gets the sum when the registry is read. */
  private deferredIncrements<L extends string>(counter: Counter<L>, labels: LabelValues<L>): () => void {
    let count = 0;
    this.onCollect(counter, () => {
      if (count === 0) return;
      counter.inc(labels, count);
      count = 0;
    });
    return () => {
      count += 1;
    };
  }

  private onCollect(metric: object, flush: () => void): void {
    const flushes = this.pending.get(metric);
    if (flushes) flushes.push(flush);
    else this.pending.set(metric, [flush]);
  }

  /** The observer to pass to a WorkQueue named `name`. */
  queueObserver(name: string): WorkQueueObserver {
    this.queueDepth.set({ name }, 0);
    this.queueAdds.inc({ name }, 0);
    this.queueRetries.inc({ name }, 0);
    let depth = 0;
    this.onCollect(this.queueDepth, () => this.queueDepth.set({ name }, depth));
    const latency = this.queueLatency.series({ name });
    const added = this.deferredIncrements(this.queueAdds, { name });
    const retries = this.queueRetries.labels({ name });
    return {
      depth: (keys) => {
        depth = keys;
      },
      waited: latency,
      added,
      retried: () => retries.inc(),
    };
  }

  registerInformer(resource: string): void {
    for (const reason of watchRestartReasons) this.watchRestarts.inc({ resource, reason }, 0);
    this.relists.inc({ resource }, 0);
  }

  watchRestarted(resource: string, reason: WatchRestartReason): void {
    this.watchRestarts.inc({ resource, reason });
  }

  relisted(resource: string): void {
    this.relists.inc({ resource });
  }

  registerLease(lease: string): void {
    this.isLeader.set({ lease }, 0);
    this.leaderTransitions.inc({ lease }, 0);
  }

  leaderChanged(lease: string, leading: boolean): void {
    this.isLeader.set({ lease }, leading ? 1 : 0);
    this.leaderTransitions.inc({ lease });
  }

  /** The observer to pass to a KubeClient (its `observer` option), named `client` (e.g. hub, member). */
  kubeClientObserver(client: string): KubeClientObserver {
    const retries = new Map(
      requestRetryReasons.map((reason) => {
        this.kubeRequestRetries.inc({ client, reason }, 0);
        return [reason, this.kubeRequestRetries.labels({ client, reason })] as const;
      }),
    );
    return { retried: (reason) => retries.get(reason)!.inc() };
  }
}
