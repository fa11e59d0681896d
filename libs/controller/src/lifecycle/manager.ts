import { Registry } from 'prom-client';
import type { EventRecorder } from '../events/event-recorder.js';
import type { Informer } from '../informer/informer.js';
import type { KubeObject } from '../kube/kube-object.js';
import type { LeaderElector } from '../leader/leader-elector.js';
import type { MetricsAccessReview } from '../metrics-access/metrics-access-review.js';
import type { ServingCertificate } from '../metrics-access/serving-certificate.js';
import type { ControllerMetrics } from '../observability/controller-metrics.js';
import { startHealthServer, type HealthCheck, type HealthServer } from '../observability/health-server.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import type { Controller } from '../queue/controller.js';

export interface ManagerOptions {
  readonly logger?: Logger;
  readonly metrics?: ControllerMetrics;
  /** Without one, this instance is always the leader (a single replica). */
  readonly leaderElector?: LeaderElector;
  /** Serve /healthz, /readyz and (without `metricsAddress`) /metrics here. */
  readonly health?: { readonly host: string; readonly port: number };
  /** Serve /metrics alone here (an agent's --metrics-bind-address); the health address then serves only the probes. */
  readonly metricsAddress?: { readonly host: string; readonly port: number };
  /**
   * Serve the metrics address over HTTPS and only to those the API server allows (an agent's --metrics-secure): the
   * certificate is made when the manager starts (a cert dir's pair, or a self-signed one).
   */
  readonly metricsSecurity?: { readonly access: MetricsAccessReview; readonly certificate: () => Promise<ServingCertificate> };
  /** How long shutdown waits for running reconciles before abandoning them. Default 10 s. */
  readonly drainTimeoutMs?: number;
  /** Called after leadership was lost and work stopped; the process should exit. */
  readonly onLeadershipLost?: () => void;
  /**
   * /healthz fails when a controller's work has waited this long with no reconcile finished meanwhile (default
   * 30 min, beyond the longest a reconcile takes with every ARM call and operation bounded).
   */
  readonly stallTimeoutMs?: number;
}

const DEFAULT_STALL_TIMEOUT_MS = 30 * 60_000;

export interface ShutdownReport {
  readonly reason: string;
  /** Reconciles still running at the drain bound, summed over controllers. */
  readonly abandoned: number;
  readonly durationMs: number;
}

/**
 * Runs one agent: informers start at once (so a standby keeps warm caches), controllers start their workers only
 * when this instance leads and every cache has synced. Shutdown goes in the order that keeps writes safe: stop
 * taking work and drain (bounded), then release the lease so a successor can start, then flush events, stop
 * watching and close the probe server.
 */
export class Manager {
  private readonly informers: Informer<KubeObject>[] = [];
  private readonly controllers: Controller[] = [];
  private readonly recorders: EventRecorder[] = [];
  private readonly extraReadiness: HealthCheck[] = [];
  private readonly logger: Logger;
  private healthServer: HealthServer | undefined;
  private metricsServer: HealthServer | undefined;
  private shuttingDown: Promise<ShutdownReport> | undefined;
  private controllersStarted = false;

  constructor(private readonly options: ManagerOptions = {}) {
    this.logger = options.logger ?? silentLogger();
  }

  addInformer<T extends KubeObject>(informer: Informer<T>): Informer<T> {
    this.informers.push(informer as unknown as Informer<KubeObject>);
    return informer;
  }

  addController(controller: Controller): Controller {
    this.controllers.push(controller);
    return controller;
  }

  addEventRecorder(recorder: EventRecorder): EventRecorder {
    this.recorders.push(recorder);
    return recorder;
  }

  /** A readiness check of the agent's own (a prerequisite it waits for); register before start(). */
  addReadinessCheck(check: HealthCheck): HealthCheck {
    this.extraReadiness.push(check);
    return check;
  }

  /** The informers whose cache deep-freezes what it stores, by name: an agent reports them at start. */
  get frozenCaches(): string[] {
    return this.informers.filter((informer) => informer.store.freezesObjects).map((informer) => informer.name);
  }

  get healthUrl(): string | undefined {
    return this.healthServer?.url;
  }

  /** Where /metrics is served: the metrics address, else the health address. */
  get metricsUrl(): string | undefined {
    return this.options.metricsAddress ? this.metricsServer?.url : this.healthServer?.url;
  }

  /**
   * A fence for writes outside the API server (Azure): a reason not to write while this replica's leader Lease is not
   * valid for `marginMs` more; undefined without leader election (a single replica always may).
   */
  leaseFence(marginMs: number): (() => string | undefined) | undefined {
    const elector = this.options.leaderElector;
    if (!elector) return undefined;
    return () =>
      elector.isLeaseValid(marginMs)
        ? undefined
        : `this replica's leader Lease is not valid for another ${marginMs / 1000} s (lost, or about to be); it writes nothing more`;
  }

  get isRunningControllers(): boolean {
    return this.controllersStarted;
  }

  readinessChecks(): HealthCheck[] {
    const checks: HealthCheck[] = [
      {
        name: 'informers-synced',
        check: () => {
          const waiting = this.informers.filter((i) => !i.hasSynced).map((i) => i.name);
          return waiting.length === 0 ? { ok: true } : { ok: false, message: `not synced: ${waiting.join(', ')}` };
        },
      },
    ];
    const elector = this.options.leaderElector;
    if (elector) checks.push({ name: 'leader-lease', check: () => elector.leaseCheck() });
    return [...checks, ...this.extraReadiness];
  }

  /** For /healthz: every controller makes progress (see Controller.stalled). */
  livenessChecks(): HealthCheck[] {
    const bound = this.options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    return [
      {
        name: 'controllers-progress',
        check: () => {
          const stalled = this.controllers.map((c) => c.stalled(bound)).filter((why): why is string => why !== undefined);
          return stalled.length === 0 ? { ok: true } : { ok: false, message: stalled.join('; ') };
        },
      },
    ];
  }

  async start(): Promise<void> {
    // Before anything runs: an unusable certificate (a cert dir without a valid pair) stops the start here.
    const security = this.options.metricsSecurity;
    const tls = security && this.options.metricsAddress ? await security.certificate() : undefined;
    for (const informer of this.informers) informer.start();
    const registry = this.options.metrics?.registry ?? new Registry();
    if (this.options.metricsAddress) {
      this.metricsServer = await startHealthServer({
        ...this.options.metricsAddress,
        registry,
        probes: false,
        ...(security && tls ? { tls, metricsAccess: (authorization, method, path) => security.access.decide(authorization, method, path) } : {}),
      });
    }
    if (this.options.health) {
      this.healthServer = await startHealthServer({
        ...this.options.health,
        ...(this.options.metricsAddress ? {} : { registry }),
        readiness: this.readinessChecks(),
        liveness: this.livenessChecks(),
      });
    }
    const elector = this.options.leaderElector;
    if (!elector) {
      void this.startControllers();
      return;
    }
    elector.onEvent((event) => {
      if (event.type === 'started-leading') void this.startControllers();
      if (event.type === 'stopped-leading' && event.why === 'renew-deadline') {
        this.logger.error('lost leadership; stopping all work');
        void this.shutdown('leadership lost').then(() => this.options.onLeadershipLost?.());
      }
    });
    elector.start();
  }

  /** Idempotent; concurrent callers share one shutdown. */
  shutdown(reason: string): Promise<ShutdownReport> {
    this.shuttingDown ??= this.runShutdown(reason);
    return this.shuttingDown;
  }

  private async startControllers(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.waitForSync()));
    if (this.shuttingDown || this.controllersStarted) return;
    this.controllersStarted = true;
    for (const controller of this.controllers) controller.start();
    this.logger.info('controllers started', { controllers: this.controllers.map((c) => c.name) });
  }

  private async runShutdown(reason: string): Promise<ShutdownReport> {
    const started = performance.now();
    this.logger.info('shutting down', { reason });
    const drainTimeoutMs = this.options.drainTimeoutMs ?? 10_000;
    const stopped = await Promise.all(this.controllers.map((c) => c.stop(drainTimeoutMs)));
    const abandoned = stopped.reduce((sum, s) => sum + s.abandoned, 0);
    if (abandoned > 0) this.logger.warn('abandoned running reconciles', { abandoned });
    await this.options.leaderElector?.stop(true);
    await Promise.all(this.recorders.map((r) => r.stop()));
    await Promise.all(this.informers.map((i) => i.stop()));
    await Promise.all([this.healthServer?.close(), this.metricsServer?.close()]);
    const report = { reason, abandoned, durationMs: Math.round(performance.now() - started) };
    this.logger.info('shut down', report);
    return report;
  }
}
