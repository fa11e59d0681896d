import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer } from '../informer/informer.js';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { collectionPath, objectPath } from '../kube/resource-type.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { configMaps, nextMatching, type ConfigMap } from '../test-support/real-api.js';
import { createWidget, installWidgetCrd, widgets } from '../test-support/test-crd.js';
import { Controller } from './controller.js';
import { done, retry } from './reconcile-outcome.js';
import { deferred } from '../util/deferred.js';

/** Refers to ConfigMaps by name, as an HTTPRoute refers to its parent Gateways. */
interface Widget extends KubeObject {
  readonly spec?: { readonly size?: number; readonly parentNames?: readonly string[] };
}

let plane: HubPlane['plane'];
let client: KubeClient;

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['burst', 'backoff', 'mapped'] }));
  await installWidgetCrd(client);
});

afterAll(async () => {
  await plane?.stop();
});

async function startInformer(namespace: string): Promise<Informer<ConfigMap>> {
  const informer = new Informer<ConfigMap>({ client, resource: configMaps, namespace });
  informer.start();
  await informer.waitForSync();
  return informer;
}

describe('controller on a real API server', () => {
  it('reconciles a burst of 1,000 updates to one object far fewer times, never twice at once', async () => {
    const path = '/api/v1/namespaces/burst/configmaps';
    await client.create(path, { metadata: { name: 'hot' }, data: { v: 'start' } });
    const informer = await startInformer('burst');
    let updateEvents = 0;
    informer.subscribe((e) => {
      if (e.type === 'updated') updateEvents++;
    });
    let reconciles = 0;
    let running = 0;
    let maxRunning = 0;
    const sawFinal = deferred();
    const controller = new Controller({
      name: 'burst',
      kind: 'ConfigMap',
      concurrency: 4,
      reconcile: async ({ namespace, name }) => {
        reconciles++;
        maxRunning = Math.max(maxRunning, ++running);
        const value = informer.store.getByName(name, namespace)?.data?.v;
        // Slow enough that many updates land during one reconcile; those must fold into one more pass, not queue up.
        await new Promise((resolve) => setTimeout(resolve, 100));
        running--;
        if (value === 'final') sawFinal.resolve();
        return done();
      },
    });
    controller.watch(informer);
    controller.start();

    const updates = 1000;
    let next = 0;
    const writer = async () => {
      while (next < updates - 1) {
        const n = next++;
        await client.patch(`${path}/hot`, { data: { v: String(n) } }, 'merge');
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    await client.patch(`${path}/hot`, { data: { v: 'final' } }, 'merge');
    await sawFinal.promise;
    await controller.stop(5000);
    await informer.stop();

    expect(updateEvents).toBeGreaterThan(updates / 2);
    expect(maxRunning).toBe(1);
    expect(reconciles).toBeLessThan(updates / 4);
  });

  it('backs off a retried key exponentially', async () => {
    await client.create('/api/v1/namespaces/backoff/configmaps', { metadata: { name: 'flaky' }, data: { v: '1' } });
    const informer = await startInformer('backoff');
    const attempts: number[] = [];
    const succeeded = deferred();
    const controller = new Controller({
      name: 'backoff',
      kind: 'ConfigMap',
      rateLimiter: { perKey: { baseMs: 100, maxMs: 10_000 }, overall: { perSecond: 100, burst: 100 } },
      reconcile: async ({ namespace, name }) => {
        if (!informer.store.getByName(name, namespace)) return done();
        attempts.push(performance.now());
        if (attempts.length < 5) return retry(new Error(`attempt ${attempts.length} failed`));
        succeeded.resolve();
        return done();
      },
    });
    controller.watch(informer);
    controller.start();
    await succeeded.promise;
    await controller.stop(1000);
    await informer.stop();

    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    // Timers never fire early (1 ms of rounding aside): each wait is at least 100, 200, 400, 800 ms.
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(100 * 2 ** i - 1));
  });

  it('reconciles exactly the keys a changed related object maps to (old and new), and nothing else', async () => {
    const ns = 'mapped';
    for (const name of ['gw-a', 'gw-b', 'gw-c', 'gw-d']) await client.create(collectionPath(configMaps, ns), { metadata: { name } });
    const putWidget = (name: string, parentNames: string[]) => createWidget(client, ns, name, parentNames);
    await putWidget('route-1', ['gw-a', 'gw-b']);
    await putWidget('route-2', ['gw-d']);
    const parents = await startInformer(ns);
    const routes = new Informer<Widget>({
      client,
      resource: widgets,
      namespace: ns,
      indexers: { parent: (w) => w.spec?.parentNames ?? [] },
    });
    routes.start();
    await routes.waitForSync();

    // Level-based: each reconcile records its key and the routes that refer to it *now* (from the index).
    const reconciled: string[] = [];
    const listeners = new Set<(name: string) => void>();
    const controller = new Controller({
      name: 'parents',
      kind: 'ConfigMap',
      reconcile: async ({ name }) => {
        const referrers = routes.store.byIndex('parent', name).map((w) => w.metadata.name);
        reconciled.push(`${name}<-${referrers.sort().join(',')}`);
        for (const listener of listeners) listener(name);
        return done();
      },
    });
    const reconciledWhen = (match: (name: string) => boolean) => nextMatching<string>((h) => (listeners.add(h), () => listeners.delete(h)), match);
    controller.watch(parents);
    controller.watch(routes, (w) => (w.spec?.parentNames ?? []).map((name) => ({ namespace: ns, name })));

    // Both sources were subscribed before the workers started: every key is queued once, whichever source named it.
    const initial = reconciledWhen(() => reconciled.length === 4);
    controller.start();
    await initial;
    expect(reconciled.splice(0).sort()).toEqual(['gw-a<-route-1', 'gw-b<-route-1', 'gw-c<-', 'gw-d<-route-2']);

    // One worker and a FIFO queue: once a fence key queued by a later event on the same watch has been reconciled,
    // everything the change under test queued has been reconciled too. What is in `reconciled` then is all of it.
    let fences = 0;
    const afterFence = async (): Promise<string[]> => {
      const fence = `fence-${++fences}`;
      const fenced = reconciledWhen((name) => name === fence);
      await putWidget(fence, [fence]);
      await fenced;
      return reconciled
        .splice(0)
        .filter((r) => !r.startsWith('fence-'))
        .sort();
    };

    await client.patch(objectPath(widgets, 'route-1', ns), { spec: { parentNames: ['gw-b', 'gw-c'] } }, 'merge');
    expect(await afterFence()).toEqual(['gw-a<-', 'gw-b<-route-1', 'gw-c<-route-1']);

    await client.patch(objectPath(widgets, 'route-2', ns), { spec: { size: 2 } }, 'merge');
    expect(await afterFence()).toEqual(['gw-d<-route-2']);

    await putWidget('route-3', []);
    expect(await afterFence()).toEqual([]);

    await client.delete(objectPath(widgets, 'route-1', ns));
    expect(await afterFence()).toEqual(['gw-b<-', 'gw-c<-']);

    await controller.stop(1000);
    await Promise.all([parents.stop(), routes.stop()]);
  });
});
