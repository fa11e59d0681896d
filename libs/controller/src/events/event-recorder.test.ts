import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeList, KubeObject } from '../kube/kube-object.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { EventRecorder } from './event-recorder.js';

interface Event extends KubeObject {
  readonly reason: string;
  readonly note: string;
  readonly type: string;
  readonly eventTime: string;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly regarding: { kind: string; name: string; namespace?: string; uid?: string };
  readonly series?: { count: number; lastObservedTime: string };
}

let plane: HubPlane['plane'];
let client: KubeClient;

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['events'] }));
});

afterAll(async () => {
  await plane?.stop();
});

const eventsIn = async (namespace: string) => (await client.get<KubeList<Event>>(`/apis/events.k8s.io/v1/namespaces/${namespace}/events`)).items;

describe('event recorder on a real API server', () => {
  it('writes events.k8s.io/v1 Events, folds repeats into a series and rate-limits per object and reason', async () => {
    const recorder = new EventRecorder({
      client,
      reportingController: 'example.com/test-agent',
      reportingInstance: 'pod-1',
      aggregation: { seriesWindowMs: 60_000, seriesFlushMs: 60_000, perObjectReason: { burst: 3, perSecond: 0.001 } },
    });
    const regarding = await client.create<KubeObject>('/api/v1/namespaces/events/configmaps', { metadata: { name: 'subject' } });
    for (let i = 0; i < 5; i++) recorder.record(regarding, 'Warning', 'SyncFailed', 'Reconcile', 'the same cause');
    for (let i = 0; i < 5; i++) recorder.record(regarding, 'Normal', 'Programmed', 'Reconcile', `distinct note ${i}`);
    await recorder.stop();

    const events = await eventsIn('events');
    const repeated = events.filter((e) => e.reason === 'SyncFailed');
    expect(repeated).toHaveLength(1);
    expect(repeated[0]).toMatchObject({
      type: 'Warning',
      note: 'the same cause',
      action: 'Reconcile',
      reportingController: 'example.com/test-agent',
      reportingInstance: 'pod-1',
      regarding: { kind: 'ConfigMap', name: 'subject', namespace: 'events', uid: regarding.metadata.uid },
      series: { count: 5 },
    });
    expect(repeated[0]!.eventTime).toMatch(/\.\d{6}Z$/);
    expect(events.filter((e) => e.reason === 'Programmed')).toHaveLength(3);
    expect(recorder.dropped).toBe(2);
  });

  it('files events about cluster-scoped objects in the default namespace and never throws on a failed write', async () => {
    const recorder = new EventRecorder({ client, reportingController: 'example.com/test-agent', reportingInstance: 'pod-1' });
    const namespace = await client.get<KubeObject>('/api/v1/namespaces/events');
    recorder.record({ ...namespace, apiVersion: 'v1', kind: 'Namespace' }, 'Normal', 'Seen', 'Observe', 'cluster-scoped');
    // A namespace that does not exist: the create fails, the recorder logs and carries on.
    recorder.record({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ghost', namespace: 'no-such-namespace' } }, 'Normal', 'Seen', 'Observe', 'lost');
    await recorder.stop();
    const events = await eventsIn('default');
    expect(events.filter((e) => e.note === 'cluster-scoped').map((e) => e.regarding.kind)).toEqual(['Namespace']);
  });
});
