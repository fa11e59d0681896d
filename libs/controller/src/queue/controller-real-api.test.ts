import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer } from '../informer/informer.js';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { configMaps } from '../test-support/real-api.js';
import { Controller } from './controller.js';
import { done, retry } from './reconcile-outcome.js';
import { deferred } from '../util/deferred.js';

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

let plane: HubPlane['plane'];
let client: KubeClient;

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['burst', 'backoff'] }));
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
    expect(gaps[3]! / gaps[0]!).toBeGreaterThan(4);
  });
});
