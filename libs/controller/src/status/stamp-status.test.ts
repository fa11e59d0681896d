import { describe, expect, it } from 'vitest';
import type { DesiredCondition } from './conditions.js';
import { stampStatus } from './stamp-status.js';

const earlier = '2024-01-01T00:00:00Z';
const now = new Date('2025-06-01T00:00:00Z');
const ready = (status: 'True' | 'False'): DesiredCondition => ({ type: 'Ready', status, reason: 'R', message: '' });

describe('stampStatus', () => {
  it('stamps top-level conditions against the current ones', () => {
    const current = { conditions: [{ ...ready('True'), lastTransitionTime: earlier }] };
    expect(stampStatus({ conditions: [ready('True')], other: 1 }, current, now)).toEqual({
      conditions: [{ ...ready('True'), lastTransitionTime: earlier }],
      other: 1,
    });
  });

  it('matches keyed-list entries by their key fields so nested conditions keep their times', () => {
    const current = {
      listeners: [
        { name: 'b', conditions: [{ ...ready('True'), lastTransitionTime: 'b-time' }] },
        { name: 'a', conditions: [{ ...ready('True'), lastTransitionTime: 'a-time' }] },
      ],
    };
    const desired = {
      listeners: [
        { name: 'a', conditions: [ready('True')] },
        { name: 'b', conditions: [ready('False')] },
        { name: 'c', conditions: [ready('True')] },
      ],
    };
    const stamped = stampStatus(desired, current, now, { listeners: ['name'] });
    expect(stamped.listeners.map((l) => l.conditions[0]?.lastTransitionTime)).toEqual(['a-time', '2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z']);
  });

  it('matches on structured keys such as parentRef', () => {
    const parentRef = { name: 'gw', namespace: 'ns', sectionName: 'http' };
    const current = { parents: [{ parentRef, controllerName: 'x', conditions: [{ ...ready('True'), lastTransitionTime: earlier }] }] };
    const desired = { parents: [{ parentRef: { ...parentRef }, controllerName: 'x', conditions: [ready('True')] }] };
    const stamped = stampStatus(desired, current, now, { parents: ['parentRef', 'controllerName'] });
    expect(stamped.parents[0]?.conditions[0]?.lastTransitionTime).toBe(earlier);
  });

  it('leaves lists it has no keys for as they are', () => {
    const desired = { addresses: [{ type: 'Hostname', value: 'a.example' }] };
    expect(stampStatus(desired, {}, now)).toEqual(desired);
  });
});
