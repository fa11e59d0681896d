import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer } from '../informer/informer.js';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { acquireJitter } from '../leader/leader-election-options.js';
import { LeaderElector, type LeaderEvent } from '../leader/leader-elector.js';
import type { Lease } from '../leader/lease-record.js';
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
  const elector = new LeaderElector({ client, namespace: 'managed', name: 'agent', identity, ...timings });
  const leaderEvents: LeaderEvent[] = [];
  elector.onEvent((e) => leaderEvents.push(e));
  const manager = new Manager({ leaderElector: elector, health: { host: '127.0.0.1', port: 0 }, drainTimeoutMs: 2000 });
  managers.push(manager);
  const informer = manager.addInformer(new Informer<KubeObject>({ client, resource: configMaps, namespace: 'managed' }));
  const controller = new Controller({
    name: `cm-${identity}`,
    kind: 'ConfigMap',
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
    const aLeads = nextMatching<LeaderEvent>((h) => a.elector.onEvent(h), (e) => e.type === 'started-leading');
    await a.manager.start();
    await aLeads;
    await eventually(() => a.reconciled, (r) => r.includes('x'));
    const ready = await fetch(`${a.manager.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toContain('[+]leader-lease ok');

    const b = agent('b');
    const bSawA = nextMatching<LeaderEvent>((h) => b.elector.onEvent(h), (e) => e.type === 'new-leader');
    await b.manager.start();
    await b.informer.waitForSync();
    expect(await bSawA).toMatchObject({ type: 'new-leader', identity: 'a' });
    // The standby has the object cached but runs no reconciler, so it writes nothing.
    expect(b.informer.store.getByName('x', 'managed')).toBeDefined();
    expect(b.manager.isRunningControllers).toBe(false);
    expect(b.reconciled).toEqual([]);
    expect((await fetch(`${b.manager.healthUrl}/readyz`)).status).toBe(200);

    const bLeads = nextMatching<LeaderEvent>((h) => b.elector.onEvent(h), (e) => e.type === 'started-leading');
    const report = await a.manager.shutdown('test');
    const releasedAt = Date.now();
    expect(report.abandoned).toBe(0);
    expect(a.leaderEvents.at(-1)).toMatchObject({ type: 'stopped-leading', why: 'shutdown' });

    const takeover = await bLeads;
    expect(takeover.at - releasedAt).toBeLessThan(timings.retryPeriodMs * (1 + acquireJitter) + 1000);
    await eventually(() => b.reconciled, (r) => r.includes('x'));
    const lease = await client.get<Lease>('/apis/coordination.k8s.io/v1/namespaces/managed/leases/agent');
    expect(lease.spec?.holderIdentity).toBe('b');
    expect(lease.spec?.leaseTransitions).toBe(1);
  });
});
