import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient, type QueryParams } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import type { ObjectEvent } from '../queue/object-event.js';
import type { FreezableProxy } from '../test-support/freezable-proxy.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { configMaps, nextMatching, proxiedClient, type ConfigMap } from '../test-support/real-api.js';
import { Informer, type InformerLifecycleEvent } from './informer.js';
import { listAllPages } from './list-all-pages.js';

// With the watch cache on, the API server serves old resourceVersions from memory; off, a watch goes to etcd,
// which answers a compacted revision with 410 Gone.
let plane: HubPlane['plane'];
let client: KubeClient;
let proxy: FreezableProxy;
let viaProxy: KubeClient;

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['gone'], apiServerArgs: ['--watch-cache=false'] }));
  ({ proxy, client: viaProxy } = await proxiedClient(plane.cluster('hub')));
});

afterAll(async () => {
  await proxy?.close();
  await plane?.stop();
});

const configMapPath = (name = '') => `/api/v1/namespaces/gone/configmaps${name ? `/${name}` : ''}`;

describe('informer and 410 Gone', () => {
  it('relists when its resourceVersion was compacted away, and no change is lost', async () => {
    await client.create(configMapPath(), { metadata: { name: 'kept' }, data: { v: '1' } });
    await client.create(configMapPath(), { metadata: { name: 'removed' }, data: { v: '1' } });
    const informer = new Informer<ConfigMap>({ client: viaProxy, resource: configMaps, namespace: 'gone', watchSilenceMs: 2000 });
    const events: ObjectEvent<ConfigMap>[] = [];
    const lifecycle: InformerLifecycleEvent[] = [];
    informer.subscribe((e) => events.push(e));
    informer.onLifecycle((e) => lifecycle.push(e));
    const watching = nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      (e) => e.type === 'watch-started',
    );
    informer.start();
    await informer.waitForSync();
    await watching;

    // Hold the watch so these changes are not delivered, then compact them out of etcd's history.
    expect(proxy.freeze()).toBeGreaterThanOrEqual(1);
    const before = events.length;
    await client.patch(configMapPath('kept'), { data: { v: '2' } }, 'merge');
    await client.delete(configMapPath('removed'));
    await client.create(configMapPath(), { metadata: { name: 'added' }, data: { v: '1' } });
    await plane.compactEtcd();

    const relisted = nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      (e) => e.type === 'listed' && lifecycle.some((l) => l.type === 'watch-ended' && l.reason === 'gone'),
    );
    await relisted;
    await informer.stop();

    const missed = events.slice(before).map((e) => `${e.type} ${e.object.metadata.name} ${e.object.data?.v ?? ''}`);
    expect(missed.sort()).toEqual(['added added 1', 'deleted removed 1', 'updated kept 2']);
    expect(
      informer.store
        .list()
        .map((c) => c.metadata.name)
        .sort(),
    ).toEqual(['added', 'kept']);
  });

  it.each(['json', 'protobuf'] as const)('falls back to one full list when the continue token of a paginated %s list has expired', async (encoding) => {
    const path = `/api/v1/namespaces/pages-${encoding}/configmaps`;
    await client.create('/api/v1/namespaces', { metadata: { name: `pages-${encoding}` } });
    for (const name of ['a', 'b', 'c']) await client.create(path, { metadata: { name } });
    const requests: string[] = [];
    // Between the first and the second page: another write, then a compaction past the list's revision.
    class CompactingAfterFirstPage extends KubeClient {
      override getProtobuf(getPath: string, query?: QueryParams, signal?: AbortSignal): Promise<Buffer> {
        return this.recorded(query, () => super.getProtobuf(getPath, query, signal));
      }

      override getText(getPath: string, query?: QueryParams, signal?: AbortSignal): Promise<string> {
        return this.recorded(query, () => super.getText(getPath, query, signal));
      }

      private async recorded<T>(query: QueryParams | undefined, call: () => Promise<T>): Promise<T> {
        const kind = query?.continue ? 'continue' : query?.limit ? 'first-page' : 'full';
        try {
          const page = await call();
          requests.push(`${kind} ok`);
          if (kind === 'first-page') {
            await client.create(path, { metadata: { name: 'd' } });
            await plane.compactEtcd();
          }
          return page;
        } catch (error) {
          requests.push(`${kind} ${(error as { statusCode?: number }).statusCode}`);
          throw error;
        }
      }
    }
    const compacting = new CompactingAfterFirstPage(plane.cluster('hub').kubeConfig());
    const list = await listAllPages<KubeObject>(compacting, path, {}, 2, encoding);
    expect(requests).toEqual(['first-page ok', 'continue 410', 'full ok']);
    expect(list.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(list.pages).toBe(2);
  });
});
