import { describe, expect, it } from 'vitest';
import { EventAggregator, type EventInput } from './event-aggregator.js';

const options = { seriesWindowMs: 1000, seriesFlushMs: 100, perObjectReason: { burst: 2, perSecond: 1 } };
const regarding = { apiVersion: 'v1', kind: 'Thing', name: 'a', namespace: 'ns', uid: 'u1' };
const event = (over: Partial<EventInput> = {}): EventInput => ({
  regarding,
  type: 'Warning',
  reason: 'Failed',
  action: 'Reconcile',
  note: 'boom',
  ...over,
});

describe('EventAggregator', () => {
  it('creates an Event the first time and folds repeats into its series', () => {
    const aggregator = new EventAggregator(options);
    const first = aggregator.observe(event(), 0);
    expect(first).toMatchObject({ kind: 'create', eventTime: 0 });
    expect(first.kind === 'create' && first.eventName).toMatch(/^a\.[0-9a-f]{16}$/);
    expect(aggregator.observe(event(), 10)).toEqual({ kind: 'series-pending', count: 2 });
    expect(aggregator.observe(event(), 20)).toEqual({ kind: 'series-pending', count: 3 });
  });

  it('writes a series at most once per flush interval, with the latest count', () => {
    const aggregator = new EventAggregator(options);
    const created = aggregator.observe(event(), 0);
    const eventName = created.kind === 'create' ? created.eventName : '';
    aggregator.observe(event(), 10);
    expect(aggregator.dueSeriesUpdates(50)).toEqual([]);
    aggregator.observe(event(), 60);
    expect(aggregator.dueSeriesUpdates(100)).toEqual([{ eventName, namespace: 'ns', count: 3, lastObservedTime: 60 }]);
    expect(aggregator.dueSeriesUpdates(500)).toEqual([]);
    aggregator.observe(event(), 510);
    expect(aggregator.dueSeriesUpdates(510, true)).toEqual([{ eventName, namespace: 'ns', count: 4, lastObservedTime: 510 }]);
  });

  it('treats a different note, reason, type or object as a different Event', () => {
    const aggregator = new EventAggregator({ ...options, perObjectReason: { burst: 10, perSecond: 1 } });
    aggregator.observe(event(), 0);
    expect(aggregator.observe(event({ note: 'other' }), 1).kind).toBe('create');
    expect(aggregator.observe(event({ type: 'Normal' }), 2).kind).toBe('create');
    expect(aggregator.observe(event({ regarding: { ...regarding, uid: 'u2' } }), 3).kind).toBe('create');
    expect(aggregator.trackedSeries).toBe(4);
  });

  it('starts a new Event once the series window has passed, and forgets idle series', () => {
    const aggregator = new EventAggregator(options);
    aggregator.observe(event(), 0);
    expect(aggregator.observe(event(), 2000).kind).toBe('create');
    aggregator.dueSeriesUpdates(5000);
    expect(aggregator.trackedSeries).toBe(0);
  });

  it('rate-limits new Events per object and reason, not repeats', () => {
    const aggregator = new EventAggregator(options);
    expect(aggregator.observe(event({ note: '1' }), 0).kind).toBe('create');
    expect(aggregator.observe(event({ note: '2' }), 0).kind).toBe('create');
    expect(aggregator.observe(event({ note: '3' }), 0).kind).toBe('rate-limited');
    expect(aggregator.observe(event({ note: '1' }), 0).kind).toBe('series-pending');
    expect(aggregator.observe(event({ note: '3', reason: 'Other' }), 0).kind).toBe('create');
    expect(aggregator.observe(event({ note: '3' }), 1000).kind).toBe('create');
  });

  it('puts Events about cluster-scoped objects in the default namespace', () => {
    const aggregator = new EventAggregator(options, 'fleet-system');
    aggregator.observe(event({ regarding: { apiVersion: 'v1', kind: 'Node', name: 'n' } }), 0);
    aggregator.observe(event({ regarding: { apiVersion: 'v1', kind: 'Node', name: 'n' } }), 1);
    expect(aggregator.dueSeriesUpdates(0, true)[0]?.namespace).toBe('fleet-system');
  });

  it('forget drops a series so the next repeat creates again', () => {
    const aggregator = new EventAggregator(options);
    const created = aggregator.observe(event(), 0);
    aggregator.forget(created.kind === 'create' ? created.eventName : '');
    expect(aggregator.observe(event(), 1).kind).toBe('create');
  });
});
