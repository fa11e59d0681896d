import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer } from '../informer/informer.js';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import type { ResourceType } from '../kube/resource-type.js';
import { LeaderElector, type LeaderEvent } from '../leader/leader-elector.js';
import type { Lease } from '../leader/lease-record.js';
import { ControllerMetrics } from '../observability/controller-metrics.js';
import { Controller } from '../queue/controller.js';
import { done } from '../queue/reconcile-outcome.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { configMaps, eventually, nextMatching } from '../test-support/real-api.js';
import { Manager } from './manager.js';

let plane: HubPlane['plane'];
let client: KubeClient;
const managers: Manager[] = [];

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['managed'] }));
  await client.create('/api/v1/namespaces/managed/configmaps', { metadata: { name: 'x' }, data: {} });
});

afterAll(async () => {
  await Promise.all(managers.map((m) => m.shutdown('test over')));
  await plane?.stop();
});

// A long lease: a successor that had to wait for it to expire would need 10 s; a released lease is taken at once.
const timings = { leaseDurationMs: 10_000, renewDeadlineMs: 8_000, retryPeriodMs: 300 };

function agent(identity: string) {
  const reconciled: string[] = [];
  const metrics = new ControllerMetrics(new Registry());
  const elector = new LeaderElector({ client, namespace: 'managed', name: 'agent', identity, metrics, ...timings });
  const leaderEvents: LeaderEvent[] = [];
  elector.onEvent((e) => leaderEvents.push(e));
  const health = { host: '127.0.0.1', port: 0 };
  const manager = new Manager({ leaderElector: elector, metrics, health, drainTimeoutMs: 2000 });
  managers.push(manager);
  const informer = manager.addInformer(new Informer<KubeObject>({ client, resource: configMaps, namespace: 'managed', metrics }));
  const controller = new Controller({
    name: `cm-${identity}`,
    kind: 'ConfigMap',
    metrics,
    reconcile: async ({ name }) => {
      reconciled.push(name);
      return done();
    },
  });
  controller.watch(informer);
  manager.addController(controller);
  return { manager, elector, informer, reconciled, leaderEvents };
}

describe('manager with leader election', () => {
  it('keeps a standby warm but idle, and on shutdown releases the lease so the standby takes over at once', async () => {
    const a = agent('a');
    const aLeads = nextMatching<LeaderEvent>(
      (h) => a.elector.onEvent(h),
      (e) => e.type === 'started-leading',
    );
    await a.manager.start();
    await aLeads;
    await eventually(
      () => a.reconciled,
      (r) => r.includes('x'),
    );
    const ready = await fetch(`${a.manager.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toContain('[+]leader-lease ok');
    const metricsText = await (await fetch(`${a.manager.healthUrl}/metrics`)).text();
    for (const line of [
      'leader_election_is_leader{lease="managed/agent"} 1',
      'controller_reconcile_total{controller="cm-a",outcome="done"} 1',
      'controller_reconcile_total{controller="cm-a",outcome="panic"} 0',
      'controller_reconcile_duration_seconds_count{controller="cm-a"} 1',
      'workqueue_depth{name="cm-a"} 0',
      'workqueue_queue_duration_seconds_count{name="cm-a"} 1',
      'informer_watch_restarts_total{resource="configmaps.v1",reason="error"} 0',
    ]) {
      expect(metricsText).toContain(line);
    }

    const b = agent('b');
    const bSawA = nextMatching<LeaderEvent>(
      (h) => b.elector.onEvent(h),
      (e) => e.type === 'new-leader',
    );
    await b.manager.start();
    await b.informer.waitForSync();
    expect(await bSawA).toMatchObject({ type: 'new-leader', identity: 'a' });
    // The standby has the object cached but runs no reconciler, so it writes nothing.
    expect(b.informer.store.getByName('x', 'managed')).toBeDefined();
    expect(b.manager.isRunningControllers).toBe(false);
    expect(b.reconciled).toEqual([]);
    expect((await fetch(`${b.manager.healthUrl}/readyz`)).status).toBe(200);

    const bLeads = nextMatching<LeaderEvent>(
      (h) => b.elector.onEvent(h),
      (e) => e.type === 'started-leading',
    );
    const report = await a.manager.shutdown('test');
    const releasedAt = Date.now();
    expect(report.abandoned).toBe(0);
    expect(a.leaderEvents.at(-1)).toMatchObject({ type: 'stopped-leading', why: 'shutdown' });

    const takeover = await bLeads;
    // Had the lease not been released, b would wait out the 10 s lease duration from a's last renewal.
    expect(takeover.at - releasedAt).toBeLessThan(timings.leaseDurationMs / 2);
    await eventually(
      () => b.reconciled,
      (r) => r.includes('x'),
    );
    const lease = await client.get<Lease>('/apis/coordination.k8s.io/v1/namespaces/managed/leases/agent');
    expect(lease.spec?.holderIdentity).toBe('b');
    expect(lease.spec?.leaseTransitions).toBe(1);
  });

  it('is not ready while a cache has not synced or a leader has not renewed in time, and releases on shutdown', async () => {
    // A CRD that is not installed: its list fails until it is, so this cache never syncs.
    const missing: ResourceType = { group: 'missing.example.com', version: 'v1', kind: 'Missing', plural: 'missings', namespaced: true };
    const elector = new LeaderElector({ client, namespace: 'managed', name: 'solo', identity: 'solo', ...timings });
    const leads = nextMatching<LeaderEvent>(
      (h) => elector.onEvent(h),
      (e) => e.type === 'started-leading',
    );
    const manager = new Manager({ leaderElector: elector, health: { host: '127.0.0.1', port: 0 } });
    managers.push(manager);
    manager.addInformer(new Informer<KubeObject>({ client, resource: missing, namespace: 'managed' }));
    await manager.start();
    await leads;

    const readiness = await fetch(`${manager.healthUrl}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.text()).toContain('[-]informers-synced failed: not synced: missings.v1.missing.example.com\n[+]leader-lease ok');
    expect(elector.leaseCheck(Date.now() + timings.leaseDurationMs + 1000)).toMatchObject({ ok: false });

    await manager.shutdown('test');
    const lease = await client.get<Lease>('/apis/coordination.k8s.io/v1/namespaces/managed/leases/solo');
    expect(lease.spec?.holderIdentity).toBe('');
    expect(manager.isRunningControllers).toBe(false);
  });
});
