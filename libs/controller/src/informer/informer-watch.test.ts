import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../kube/kube-client.js';
import { ControllerMetrics } from '../observability/controller-metrics.js';
import type { ObjectEvent } from '../queue/object-event.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { exponentialDelay } from '../util/backoff.js';
import { configMaps, eventually, kubeConfigAs, nextMatching, proxiedClient, type ConfigMap } from '../test-support/real-api.js';
import { Informer, type InformerLifecycleEvent } from './informer.js';
import { labelIndex } from './object-store.js';

let plane: HubPlane['plane'];
let client: KubeClient;
const informers: Informer<ConfigMap>[] = [];

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['paged', 'streamed', 'restart', 'silent', 'no-watch'] }));
});

afterAll(async () => {
  await Promise.all(informers.map((i) => i.stop()));
  await plane?.stop();
});

function track(informer: Informer<ConfigMap>) {
  informers.push(informer);
  const events: ObjectEvent<ConfigMap>[] = [];
  const lifecycle: (InformerLifecycleEvent & { at: number })[] = [];
  informer.subscribe((e) => events.push(e));
  informer.onLifecycle((e) => lifecycle.push({ ...e, at: performance.now() }));
  return { events, lifecycle };
}

const put = (ns: string, name: string, data: Record<string, string>, labels: Record<string, string> = {}) =>
  client.create(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels }, data });
const patch = (ns: string, name: string, data: Record<string, string>) => client.patch(`/api/v1/namespaces/${ns}/configmaps/${name}`, { data }, 'merge');

/** Resolves when the informer delivers an event for `name` whose data.v is `v`. */
const sawValue = (informer: Informer<ConfigMap>, name: string, v: string) =>
  nextMatching<ObjectEvent<ConfigMap>>(
    (h) => informer.subscribe(h),
    (e) => e.type !== 'deleted' && e.object.metadata.name === name && e.object.data?.v === v,
  );

describe('informer against a real API server', () => {
  it('lists page by page, fills every index and follows adds, updates and deletes', async () => {
    for (let i = 0; i < 5; i++) await put('paged', `cm-${i}`, { ref: i % 2 ? 'odd' : 'even' }, { app: i < 3 ? 'web' : 'api' });
    const informer = new Informer<ConfigMap>({
      client,
      resource: configMaps,
      namespace: 'paged',
      initialList: 'pages',
      pageSize: 2,
      indexers: { app: labelIndex('app'), ref: (cm) => (cm.data?.ref ? [cm.data.ref] : []) },
    });
    const { events, lifecycle } = track(informer);
    informer.start();
    await informer.waitForSync();
    expect(lifecycle.find((e) => e.type === 'listed')).toMatchObject({ type: 'listed', via: 'pages', items: 5, pages: 3 });
    expect(informer.store.byIndex('app', 'web')).toHaveLength(3);
    expect(
      informer.store
        .byIndex('ref', 'odd')
        .map((c) => c.metadata.name)
        .sort(),
    ).toEqual(['cm-1', 'cm-3']);
    expect(informer.store.byIndex('namespace', 'paged')).toHaveLength(5);
    expect(informer.store.getByName('cm-0', 'paged')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });

    const updated = sawValue(informer, 'cm-0', 'changed');
    await patch('paged', 'cm-0', { v: 'changed', ref: 'odd' });
    await updated;
    expect(informer.store.byIndex('ref', 'odd')).toHaveLength(3);

    const deleted = nextMatching<ObjectEvent<ConfigMap>>(
      (h) => informer.subscribe(h),
      (e) => e.type === 'deleted',
    );
    await client.delete('/api/v1/namespaces/paged/configmaps/cm-4');
    expect((await deleted).object.metadata.name).toBe('cm-4');
    expect(informer.store.size).toBe(4);
    expect(events.filter((e) => e.type === 'added')).toHaveLength(5);
  });

  it('by default streams the initial state (sendInitialEvents) and keeps watching on the same connection', async () => {
    for (let i = 0; i < 4; i++) await put('streamed', `cm-${i}`, { v: 'first' });
    const informer = new Informer<ConfigMap>({ client, resource: configMaps, namespace: 'streamed', freezeObjects: true });
    const { events, lifecycle } = track(informer);
    // Each object is stored and delivered as it arrives, not once the stream is complete.
    const cachedAtEachAdd: number[] = [];
    informer.subscribe((e) => e.type === 'added' && cachedAtEachAdd.push(informer.store.size));
    informer.start();
    await informer.waitForSync();
    expect(cachedAtEachAdd).toEqual([1, 2, 3, 4]);
    const listed = lifecycle.find((e) => e.type === 'listed');
    expect(listed).toMatchObject({ type: 'listed', via: 'stream', items: 4, pages: 0 });
    expect(Number((listed as { resourceVersion: string }).resourceVersion)).toBeGreaterThan(0);
    expect(
      events
        .filter((e) => e.type === 'added')
        .map((e) => e.object.metadata.name)
        .sort(),
    ).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3']);
    expect(informer.store.getByName('cm-0', 'streamed')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(Object.isFrozen(informer.store.getByName('cm-0', 'streamed')?.data)).toBe(true);

    const updated = sawValue(informer, 'cm-2', 'second');
    await patch('streamed', 'cm-2', { v: 'second' });
    await updated;
    await put('streamed', 'cm-4', { v: 'first' });
    await eventually(
      () => informer.store.size,
      (size) => size === 5,
    );
    // One watch served both the initial state and what followed.
    expect(lifecycle.filter((e) => e.type === 'watch-started')).toHaveLength(1);
    expect(lifecycle.filter((e) => e.type === 'listed')).toHaveLength(1);
  });

  it('stops promptly even when stopped right after its first list, before its watch began', async () => {
    const informer = new Informer<ConfigMap>({ client, resource: configMaps, namespace: 'paged' });
    informer.start();
    await informer.waitForSync();
    // Without the stop reaching the watch that starts next, this waits for the server-side watch timeout (minutes).
    await informer.stop();
    expect(informer.hasSynced).toBe(true);
  });

  it('relists periodically and resyncs the cache, each on its own timer', async () => {
    const informer = new Informer<ConfigMap>({
      client,
      resource: configMaps,
      namespace: 'paged',
      relistPeriodMs: 300,
      resyncPeriodMs: 200,
    });
    const { events, lifecycle } = track(informer);
    informer.start();
    await informer.waitForSync();
    const cached = informer.store.size;
    await nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      (e) => e.type === 'listed' && lifecycle.some((l) => l.type === 'watch-ended' && l.reason === 'relist-period'),
    );
    await nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      (e) => e.type === 'resynced',
    );
    await informer.stop();
    // A relist of unchanged objects reports no change; a resync re-delivers every cached object.
    expect(events.filter((e) => e.type === 'updated')).toEqual([]);
    expect(events.filter((e) => e.type === 'resynced').length).toBeGreaterThanOrEqual(cached);
  });

  it('survives an API server restart without losing an update', async () => {
    const hub = plane.cluster('hub');
    const informer = new Informer<ConfigMap>({
      client,
      resource: configMaps,
      namespace: 'restart',
      backoff: { baseMs: 200, maxMs: 1000 },
    });
    const { lifecycle } = track(informer);
    await put('restart', 'a', { v: '0' });
    informer.start();
    await informer.waitForSync();

    // The last write before the outage may or may not reach the watch before the server goes down.
    await patch('restart', 'a', { v: '1' });
    const outageStarted = performance.now();
    await hub.stopApiServer();
    await hub.startApiServer();
    const seenA = sawValue(informer, 'a', '2');
    const seenB = sawValue(informer, 'b', 'new');
    await patch('restart', 'a', { v: '2' });
    await put('restart', 'b', { v: 'new' });
    await Promise.all([seenA, seenB]);

    expect(informer.store.getByName('a', 'restart')?.data?.v).toBe('2');
    const after = lifecycle.filter((e) => e.at > outageStarted);
    // The outage was seen as an error and retried after a backoff, not in a hot loop.
    expect(after.some((e) => (e.type === 'watch-ended' || e.type === 'list-failed') && e.retryInMs >= 200)).toBe(true);
    expect(after.some((e) => e.type === 'listed' || e.type === 'watch-started')).toBe(true);
  });

  it('relists after every watch error, backing off exponentially with jitter, and recovers', async () => {
    // A user who may list but not watch: every watch is refused with 403 while every list succeeds.
    const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/no-watch';
    const rule = (verbs: string[]) => ({ rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] });
    await client.create(`${rbac}/roles`, { metadata: { name: 'reader' }, ...rule(['get', 'list']) });
    await client.create(`${rbac}/rolebindings`, {
      metadata: { name: 'reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'reader' }],
    });
    const asReader = new KubeClient(kubeConfigAs(plane.cluster('hub').kubeConfig(), 'reader'));
    const canList = await eventually(
      () =>
        asReader.get('/api/v1/namespaces/no-watch/configmaps').then(
          () => true,
          () => false,
        ),
      (ok) => ok,
    );
    expect(canList).toBe(true);

    const backoff = { baseMs: 50, maxMs: 400 };
    const informer = new Informer<ConfigMap>({ client: asReader, resource: configMaps, namespace: 'no-watch', backoff });
    const { lifecycle } = track(informer);
    let refusals = 0;
    const fourRefusals = nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      (e) => e.type === 'watch-ended' && ++refusals === 4,
    );
    informer.start();
    await fourRefusals;

    const first = lifecycle.slice(0, 8);
    // Each refused watch is followed by a relist, never by a bare re-watch.
    expect(first.map((e) => e.type)).toEqual(Array.from({ length: 4 }, () => ['listed', 'watch-ended']).flat());
    const waits = first.flatMap((e) => (e.type === 'watch-ended' ? [e] : []));
    waits.forEach((e, i) => {
      expect(e).toMatchObject({ reason: 'error', error: expect.stringContaining('403') });
      const step = exponentialDelay(backoff, i);
      expect(e.retryInMs).toBeGreaterThanOrEqual(step);
      expect(e.retryInMs).toBeLessThan(step * 1.5);
    });
    // Jitter: the waits are not the bare exponential steps (each would need Math.random() to return exactly 0).
    expect(waits.some((e, i) => e.retryInMs > exponentialDelay(backoff, i))).toBe(true);

    const watching = nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      (e) => e.type === 'watch-started',
    );
    await client.replace(`${rbac}/roles/reader`, { metadata: { name: 'reader' }, ...rule(['get', 'list', 'watch']) });
    await watching;
    const seen = sawValue(informer, 'after', 'watched');
    await put('no-watch', 'after', { v: 'watched' });
    await seen;
    await informer.stop();
  });

  it('restarts a watch that went silent, and the update it missed arrives', async () => {
    const { proxy, client: viaProxy } = await proxiedClient(plane.cluster('hub'));
    try {
      const metrics = new ControllerMetrics(new Registry());
      const informer = new Informer<ConfigMap>({
        client: viaProxy,
        resource: configMaps,
        namespace: 'silent',
        watchSilenceMs: 2000,
        metrics,
      });
      const { lifecycle } = track(informer);
      await put('silent', 'quiet', { v: '0' });
      const watching = nextMatching<InformerLifecycleEvent>(
        (h) => informer.onLifecycle(h),
        (e) => e.type === 'watch-started',
      );
      informer.start();
      await informer.waitForSync();
      await watching;

      expect(proxy.freeze()).toBeGreaterThanOrEqual(1);
      const frozenAt = performance.now();
      const arrived = sawValue(informer, 'quiet', '1');
      await patch('silent', 'quiet', { v: '1' });
      await arrived;
      const arrivedAt = performance.now();

      const silentEnd = lifecycle.find((e) => e.type === 'watch-ended' && e.reason === 'silent' && e.at > frozenAt);
      expect(silentEnd).toBeDefined();
      expect(silentEnd!.at).toBeLessThan(arrivedAt);
      expect(await metrics.registry.metrics()).toMatch(/informer_watch_restarts_total\{resource="configmaps.v1",reason="silent"\} [1-9]/);
      await informer.stop();
    } finally {
      await proxy.close();
    }
  });
});
