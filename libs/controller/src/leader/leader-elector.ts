import { isConflict, isNotFound } from '../kube/kube-api-error.js';
import { apiVersionOf, collectionPath, objectPath } from '../kube/resource-type.js';
import type { CheckResult } from '../observability/health-server.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { abortableSleep } from '../util/abortable-sleep.js';
import { withJitter } from '../util/backoff.js';
import { jsonEqual } from '../util/deep-equal.js';
import { formatMicroTime } from '../util/micro-time.js';
import { acquireJitter, resolveLeaderElectionTimings, type LeaderElectionOptions, type LeaderElectionTimings } from './leader-election-options.js';
import { leaseResource, type Lease, type LeaseSpec } from './lease-record.js';

export type LeaderEvent =
  | { readonly type: 'started-leading'; readonly at: number }
  | { readonly type: 'stopped-leading'; readonly at: number; readonly why: 'renew-deadline' | 'shutdown' }
  | { readonly type: 'new-leader'; readonly at: number; readonly identity: string };

/**
 * Leader election on a coordination.k8s.io Lease (client-node has none): optimistic writes with resourceVersion,
 * and expiry judged from when *this* process last saw the record change, not from the holder's clock (client-go's
 * rule, safe under clock skew). A leader that cannot renew within the renew deadline steps down and does not try
 * again: the process should exit, as controller-runtime's managers do. `stop()` releases the lease so a successor
 * need not wait out the lease duration.
 */
export class LeaderElector {
  private readonly timings: LeaderElectionTimings;
  private readonly logger: Logger;
  private readonly handlers = new Set<(event: LeaderEvent) => void>();
  private readonly stopController = new AbortController();
  private observedSpec: LeaseSpec | undefined;
  private observedAt = 0;
  private observedResourceVersion: string | undefined;
  private leading = false;
  private lastRenewAt = 0;
  /** performance.now() when the last successful acquire or renew began: it keeps counting while the process is paused. */
  private renewedAtMonotonic = 0;
  private running: Promise<void> | undefined;
  private readonly leaseName: string;
  private readonly leasePath: string;

  constructor(private readonly options: LeaderElectionOptions) {
    this.timings = resolveLeaderElectionTimings(options);
    this.leaseName = `${options.namespace}/${options.name}`;
    this.leasePath = objectPath(leaseResource, options.name, options.namespace);
    this.logger = (options.logger ?? silentLogger()).child({ lease: this.leaseName, identity: options.identity });
    options.metrics?.registerLease(this.leaseName);
  }

  onEvent(handler: (event: LeaderEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** For /readyz: a leader is ready only while its last renewal is within the lease duration. */
  leaseCheck(now: number = Date.now()): CheckResult {
    if (!this.leading) return { ok: true, message: 'not leading' };
    const age = now - this.lastRenewAt;
    return age <= this.timings.leaseDurationMs ? { ok: true } : { ok: false, message: `lease ${this.leaseName} last renewed ${age} ms ago` };
  }

  /**
   * Whether this replica may still write outside the API server (Azure): it leads and the Lease it last renewed stays
   * valid for `marginMs` more, by the monotonic clock from when that renewal began. A leader paused (GC, SIGSTOP) past
   * its Lease finds it invalid the moment it resumes, before its renew loop has noticed anything.
   */
  isLeaseValid(marginMs: number): boolean {
    return this.leading && performance.now() < this.renewedAtMonotonic + this.timings.leaseDurationMs - marginMs;
  }

  /** Stops campaigning; when leading, releases the lease first (unless `release` is false). */
  async stop(release = true): Promise<void> {
    this.stopController.abort();
    await this.running;
    if (!this.leading) return;
    if (release) await this.release();
    this.setLeading(false, 'shutdown');
  }

  private async run(): Promise<void> {
    const stop = this.stopController.signal;
    while (!stop.aborted) {
      if (await this.tryAcquireOrRenew()) {
        // Set even when stopping meanwhile, so that stop() sees the lease is ours and releases it.
        this.setLeading(true);
        break;
      }
      await abortableSleep(withJitter(this.timings.retryPeriodMs, acquireJitter), stop);
    }
    if (!this.leading) return;
    while (!stop.aborted) {
      await abortableSleep(this.timings.retryPeriodMs, stop);
      if (stop.aborted) return;
      if (await this.tryAcquireOrRenew()) continue;
      if (Date.now() - this.lastRenewAt > this.timings.renewDeadlineMs) {
        this.setLeading(false, 'renew-deadline');
        return;
      }
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const began = performance.now();
    const signal = AbortSignal.timeout(this.timings.renewDeadlineMs);
    try {
      let current: Lease;
      try {
        current = await this.options.client.get<Lease>(this.leasePath, undefined, signal);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        return await this.create(now, began, signal);
      }
      this.observe(current, now);
      const spec = current.spec ?? {};
      const holder = spec.holderIdentity ?? '';
      const heldByOther = holder !== '' && holder !== this.options.identity;
      const validFor = (spec.leaseDurationSeconds ?? 0) * 1000;
      if (heldByOther && this.observedAt + validFor > now) return false;
      const renewing = holder === this.options.identity;
      const next: LeaseSpec = {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: this.leaseDurationSeconds(),
        acquireTime: renewing && spec.acquireTime ? spec.acquireTime : formatMicroTime(new Date(now)),
        renewTime: formatMicroTime(new Date(now)),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (renewing ? 0 : 1),
      };
      const written = await this.options.client.request<Lease>('PUT', this.leasePath, {
        body: { ...current, spec: next },
        signal,
      });
      this.recordWrite(written, now, began);
      return true;
    } catch (error) {
      if (!isConflict(error)) this.logger.warn('lease acquire/renew failed', { error: (error as Error).message });
      return false;
    }
  }

  private async create(now: number, began: number, signal: AbortSignal): Promise<boolean> {
    const time = formatMicroTime(new Date(now));
    const body: Lease = {
      apiVersion: apiVersionOf(leaseResource),
      kind: leaseResource.kind,
      metadata: { name: this.options.name, namespace: this.options.namespace },
      spec: {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: this.leaseDurationSeconds(),
        acquireTime: time,
        renewTime: time,
        leaseTransitions: 0,
      },
    };
    const path = collectionPath(leaseResource, this.options.namespace);
    const created = await this.options.client.request<Lease>('POST', path, { body, signal });
    this.recordWrite(created, now, began);
    return true;
  }

  private async release(): Promise<void> {
    try {
      const current = await this.options.client.get<Lease>(this.leasePath);
      if (current.spec?.holderIdentity !== this.options.identity) return;
      const now = formatMicroTime(new Date());
      const spec: LeaseSpec = { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now };
      await this.options.client.replace(this.leasePath, { ...current, spec });
      this.logger.info('released lease');
    } catch (error) {
      // The lease then expires on its own after the lease duration.
      this.logger.warn('could not release lease', { error: (error as Error).message });
    }
  }

  private observe(lease: Lease, now: number): void {
    const spec = lease.spec ?? {};
    if (jsonEqual(spec, this.observedSpec) && lease.metadata.resourceVersion === this.observedResourceVersion) return;
    const previousHolder = this.observedSpec?.holderIdentity;
    this.observedSpec = spec;
    this.observedAt = now;
    this.observedResourceVersion = lease.metadata.resourceVersion;
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== previousHolder && holder !== this.options.identity) {
      this.emit({ type: 'new-leader', at: now, identity: holder });
    }
  }

  private recordWrite(lease: Lease, now: number, began: number): void {
    this.observedSpec = lease.spec ?? {};
    this.observedAt = now;
    this.observedResourceVersion = lease.metadata.resourceVersion;
    this.lastRenewAt = now;
    this.renewedAtMonotonic = began;
  }

  private leaseDurationSeconds(): number {
    return Math.ceil(this.timings.leaseDurationMs / 1000);
  }

  private setLeading(leading: boolean, why?: 'renew-deadline' | 'shutdown'): void {
    if (this.leading === leading) return;
    this.leading = leading;
    this.options.metrics?.leaderChanged(this.leaseName, leading);
    const at = Date.now();
    if (leading) {
      this.logger.info('started leading');
      this.emit({ type: 'started-leading', at });
    } else {
      this.logger.warn('stopped leading', { why });
      this.emit({ type: 'stopped-leading', at, why: why ?? 'shutdown' });
    }
  }

  private emit(event: LeaderEvent): void {
    for (const handler of this.handlers) handler(event);
  }
}
