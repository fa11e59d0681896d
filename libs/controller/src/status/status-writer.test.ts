import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer, type InformerLifecycleEvent } from '../informer/informer.js';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { objectPath } from '../kube/resource-type.js';
import { Controller } from '../queue/controller.js';
import { done } from '../queue/reconcile-outcome.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import type { ObjectEvent } from '../queue/object-event.js';
import { objectKey } from '../queue/request-key.js';
import { eventually, nextMatching } from '../test-support/real-api.js';
import { createWidget, installWidgetCrd, widgets } from '../test-support/test-crd.js';
import type { Condition, DesiredCondition } from './conditions.js';
import { StatusWriter } from './status-writer.js';

interface Parent {
  readonly parentRef: { readonly name: string };
  readonly controllerName: string;
  readonly conditions?: readonly (Condition | DesiredCondition)[];
}
interface Widget extends KubeObject {
  readonly status?: { phase?: string; conditions?: Condition[]; parents?: Parent[] };
}

let plane: HubPlane['plane'];
let client: KubeClient;
const ns = 'status';
const ours = 'example.com/ours';

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: [ns] }));
  await installWidgetCrd(client);
});

afterAll(async () => {
  await plane?.stop();
});

const path = (name: string) => objectPath(widgets, name, ns);
const read = (name: string) => client.get<Widget>(path(name));
/** Resolves once the informer's cache holds `object` at its resourceVersion. */
function cacheHolds(informer: Informer<Widget>, object: Widget): Promise<unknown> {
  const version = object.metadata.resourceVersion;
  if (informer.store.get(objectKey(object))?.metadata.resourceVersion === version) return Promise.resolve();
  return nextMatching<ObjectEvent<Widget>>(
    (h) => informer.subscribe(h),
    (e) => e.object.metadata.resourceVersion === version,
  );
}

const ready = (message: string): DesiredCondition => ({ type: 'Ready', status: 'True', reason: 'Ready', message });

describe('status writer on a real API server', () => {
  it('applies keyed status, keeps other managers’ conditions, and writes nothing over several unchanged resyncs', async () => {
    await createWidget<Widget>(client, ns, 'applied');
    await client.patch(
      `${path('applied')}/status`,
      {
        apiVersion: `${widgets.group}/${widgets.version}`,
        kind: widgets.kind,
        metadata: { name: 'applied', namespace: ns },
        status: { conditions: [{ type: 'Foreign', status: 'True', reason: 'Theirs', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
      },
      'apply',
      { fieldManager: 'someone-else', force: true },
    );
    // A pinned clock, so a transition time that was wrongly re-stamped could not happen to fall in the same second.
    let clock = new Date('2030-01-01T00:00:00Z');
    const writer = new StatusWriter({ client, fieldManager: 'our-agent', now: () => clock });
    const informer = new Informer<Widget>({ client, resource: widgets, namespace: ns, resyncPeriodMs: 200 });
    let condition = ready('first');
    let reconciles = 0;
    const controller = new Controller({
      name: 'widgets',
      kind: widgets.kind,
      reconcile: async ({ namespace, name }) => {
        const current = informer.store.getByName(name, namespace);
        if (!current || name !== 'applied') return done();
        reconciles++;
        const result = await writer.apply(widgets, current, { phase: 'Running', conditions: [condition] }, {});
        // Hold the key until the cache has our write: a resync reconcile that read the older cached object would
        // otherwise (rightly, from what it sees) write again, and the write counts below would depend on timing.
        if (result.written) await cacheHolds(informer, result.object);
        return done();
      },
    });
    controller.watch(informer);
    const resyncs: InformerLifecycleEvent[] = [];
    informer.onLifecycle((e) => e.type === 'resynced' && resyncs.push(e));
    informer.start();
    controller.start();

    const first = await eventually(
      () => read('applied'),
      (w) => w.status?.phase === 'Running',
    );
    expect(writer.writes).toBe(1);
    const readyOf = (w: Widget) => w.status?.conditions?.find((c) => c.type === 'Ready');
    expect(readyOf(first)?.lastTransitionTime).toBe('2030-01-01T00:00:00Z');

    const reconcilesBefore = reconciles;
    await eventually(
      () => resyncs.length,
      (n) => n >= 4,
    );
    await eventually(
      () => reconciles,
      (n) => n >= reconcilesBefore + 3,
    );
    expect(writer.writes).toBe(1);
    expect((await read('applied')).metadata.resourceVersion).toBe(first.metadata.resourceVersion);

    // A new message with the same status is a write, but the transition time stays; a new status is stamped now.
    clock = new Date('2031-01-01T00:00:00Z');
    condition = ready('second');
    controller.enqueue({ namespace: ns, name: 'applied' });
    const second = await eventually(
      () => read('applied'),
      (w) => readyOf(w)?.message === 'second',
    );
    expect(writer.writes).toBe(2);
    expect(readyOf(second)?.lastTransitionTime).toBe('2030-01-01T00:00:00Z');
    expect(second.status?.conditions?.map((c) => c.type).sort()).toEqual(['Foreign', 'Ready']);

    condition = { ...ready('third'), status: 'False', reason: 'Broken' };
    controller.enqueue({ namespace: ns, name: 'applied' });
    const third = await eventually(
      () => read('applied'),
      (w) => readyOf(w)?.status === 'False',
    );
    expect(writer.writes).toBe(3);
    expect(readyOf(third)?.lastTransitionTime).toBe('2031-01-01T00:00:00Z');
    await controller.stop(1000);
    await informer.stop();
  });

  it('splices only our entries into an atomic list, skips unchanged writes and retries on conflict', async () => {
    const created = await createWidget<Widget>(client, ns, 'spliced');
    const theirs = (name: string): Parent => ({ parentRef: { name }, controllerName: 'example.com/other' });
    await client.patch(`${path('spliced')}/status`, { status: { parents: [theirs('gw-1')] } }, 'merge');
    const writer = new StatusWriter({ client, fieldManager: 'our-agent' });
    const rule = { keyFields: ['parentRef', 'controllerName'], isOurs: (p: Parent) => p.controllerName === ours };
    const ourEntry: Parent = { parentRef: { name: 'gw-1' }, controllerName: ours, conditions: [ready('accepted')] };

    // `created` is stale (the other controller wrote since): the precondition fails, the writer re-reads and retries.
    const result = await writer.splice(widgets, created, { listPath: ['parents'], entries: [ourEntry], rule });
    expect(result.written).toBe(true);
    expect(writer.writes).toBe(2);
    const afterFirst = await read('spliced');
    expect(afterFirst.status?.parents?.map((p) => p.controllerName)).toEqual(['example.com/other', ours]);

    // Nothing changed: no request at all.
    const again = await writer.splice(widgets, afterFirst, { listPath: ['parents'], entries: [ourEntry], rule });
    expect(again.written).toBe(false);
    expect(writer.writes).toBe(2);

    // Another controller adds an entry; our next change keeps it.
    await client.patch(`${path('spliced')}/status`, { status: { parents: [...afterFirst.status!.parents!, theirs('gw-2')] } }, 'merge');
    const changed: Parent = { ...ourEntry, conditions: [{ ...ready('accepted'), status: 'False', reason: 'Invalid' }] };
    await writer.splice(widgets, afterFirst, { listPath: ['parents'], entries: [changed], rule });
    const final = await read('spliced');
    expect(final.status?.parents?.map((p) => `${p.controllerName}/${p.parentRef.name}`)).toEqual([
      'example.com/other/gw-1',
      `${ours}/gw-1`,
      'example.com/other/gw-2',
    ]);
    expect(final.status?.parents?.[1]?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'Invalid' });
  });
});
