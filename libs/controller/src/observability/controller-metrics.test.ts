import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ControllerMetrics } from './controller-metrics.js';

describe('ControllerMetrics', () => {
  it('creates every label set at zero when a controller, queue, informer and lease register', async () => {
    const metrics = new ControllerMetrics(new Registry());
    metrics.registerController('gateway');
    metrics.queueObserver('gateway');
    metrics.registerInformer('gateways.v1.gateway.networking.k8s.io');
    metrics.registerLease('kube-system/hub');
    const text = await metrics.registry.metrics();
    for (const outcome of ['done', 'requeue-after', 'retry', 'terminal', 'panic']) {
      expect(text).toContain(`controller_reconcile_total{controller="gateway",outcome="${outcome}"} 0`);
    }
    for (const reason of ['gone', 'error', 'silent', 'closed', 'relist-period']) {
      expect(text).toContain(`informer_watch_restarts_total{resource="gateways.v1.gateway.networking.k8s.io",reason="${reason}"} 0`);
    }
    expect(text).toContain('controller_reconcile_duration_seconds_count{controller="gateway"} 0');
    expect(text).toContain('workqueue_depth{name="gateway"} 0');
    expect(text).toContain('workqueue_queue_duration_seconds_count{name="gateway"} 0');
    expect(text).toContain('leader_election_is_leader{lease="kube-system/hub"} 0');
  });

  it('records outcomes, queue activity and leadership', async () => {
    const metrics = new ControllerMetrics(new Registry());
    metrics.registerController('c').reconciled('retry', 0.2);
    const observer = metrics.queueObserver('c');
    observer.depth?.(4);
    observer.waited?.(0.5);
    metrics.leaderChanged('l', true);
    metrics.watchRestarted('r', 'silent');
    const text = await metrics.registry.metrics();
    expect(text).toContain('controller_reconcile_total{controller="c",outcome="retry"} 1');
    expect(text).toContain('controller_reconcile_duration_seconds_sum{controller="c"} 0.2');
    expect(text).toContain('workqueue_depth{name="c"} 4');
    expect(text).toContain('workqueue_queue_duration_seconds_count{name="c"} 1');
    expect(text).toContain('leader_election_is_leader{lease="l"} 1');
    expect(text).toContain('informer_watch_restarts_total{resource="r",reason="silent"} 1');
  });

  it('hands counts kept off prom-client on hot paths to every read, each counted once, for every queue and outcome', async () => {
    const metrics = new ControllerMetrics(new Registry());
    const a = metrics.queueObserver('a');
    const b = metrics.queueObserver('b');
    const reconciled = metrics.registerController('a').reconciled;
    for (let i = 0; i < 3; i++) a.added?.();
    b.added?.();
    a.depth?.(2);
    reconciled('done', 0.01);
    reconciled('done', 0.01);
    let text = await metrics.registry.metrics();
    expect(text).toContain('workqueue_adds_total{name="a"} 3');
    expect(text).toContain('workqueue_adds_total{name="b"} 1');
    expect(text).toContain('workqueue_depth{name="a"} 2');
    expect(text).toContain('controller_reconcile_total{controller="a",outcome="done"} 2');
    a.added?.();
    a.depth?.(0);
    text = await metrics.registry.metrics();
    expect(text).toContain('workqueue_adds_total{name="a"} 4');
    expect(text).toContain('workqueue_adds_total{name="b"} 1');
    expect(text).toContain('workqueue_depth{name="a"} 0');
    expect(text).toContain('controller_reconcile_total{controller="a",outcome="done"} 2');
    expect((await metrics.registry.getSingleMetric('workqueue_adds_total')!.get()).values).toContainEqual({ labels: { name: 'a' }, value: 4 });
  });
});
