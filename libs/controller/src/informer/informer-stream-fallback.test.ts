import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../kube/kube-client.js';
import { createLogger } from '../observability/logger.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { captureLogLines } from '../test-support/log-capture.js';
import { configMaps, nextMatching, type ConfigMap } from '../test-support/real-api.js';
import { Informer, type InformerLifecycleEvent } from './informer.js';

let plane: HubPlane['plane'];
let client: KubeClient;

beforeAll(async () => {
  // A kube-apiserver that cannot stream lists: with the WatchList gate off it answers sendInitialEvents with 422.
  ({ plane, client } = await startHubPlane({ namespaces: ['fallback'], apiServerArgs: ['--feature-gates=WatchList=false'] }));
});

afterAll(async () => {
  await plane?.stop();
});

describe('informer against an API server that refuses streaming lists', () => {
  it('falls back to a paged list, and after the refusal does not ask to stream again', async () => {
    for (let i = 0; i < 3; i++) await client.create('/api/v1/namespaces/fallback/configmaps', { metadata: { name: `cm-${i}` } });
    const { stream, lines } = captureLogLines();
    const informer = new Informer<ConfigMap>({
      client,
      resource: configMaps,
      namespace: 'fallback',
      pageSize: 2,
      relistPeriodMs: 300,
      logger: createLogger({ stream, level: 'info' }),
    });
    const listings: InformerLifecycleEvent[] = [];
    informer.onLifecycle((e) => {
      if (e.type === 'listed') listings.push(e);
    });
    const relisted = nextMatching<InformerLifecycleEvent>(
      (h) => informer.onLifecycle(h),
      () => listings.length === 3,
    );
    informer.start();
    try {
      await informer.waitForSync();
      expect(informer.store.size).toBe(3);
      await relisted;
      expect(listings).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ via: 'pages', items: 3, pages: 2 })));
      const refusals = lines.filter((l) => String(l.message).startsWith('streaming list ended'));
      expect(refusals).toEqual([expect.objectContaining({ level: 'info', error: expect.stringContaining('422') })]);
    } finally {
      await informer.stop();
    }
  });
});
