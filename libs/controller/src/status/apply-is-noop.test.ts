import { describe, expect, it } from 'vitest';
import { applyIsNoop, type ManagedFieldsEntry } from './apply-is-noop.js';

const manager = 'agent';
const cond = (type: string, status: string) => ({ type, status, reason: 'R', message: 'm', lastTransitionTime: 't' });
const condFields = { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} };
const owned = (fields: Record<string, unknown>): ManagedFieldsEntry[] => [
  { manager: 'someone-else', operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:other': {} } } },
  { manager, operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': fields } },
];
const readyOwned = { 'f:conditions': { 'k:{"type":"Ready"}': condFields }, 'f:phase': {} };
const current = { conditions: [cond('Foreign', 'True'), cond('Ready', 'True')], phase: 'Up', other: 'x' };

describe('applyIsNoop', () => {
  it('is a no-op when our values are there and we own exactly what we apply', () => {
    expect(applyIsNoop(current, { conditions: [cond('Ready', 'True')], phase: 'Up' }, owned(readyOwned), manager)).toBe(true);
  });

  it('is a change when a value differs', () => {
    expect(applyIsNoop(current, { conditions: [cond('Ready', 'False')], phase: 'Up' }, owned(readyOwned), manager)).toBe(false);
    expect(applyIsNoop(current, { conditions: [cond('Ready', 'True')], phase: 'Down' }, owned(readyOwned), manager)).toBe(false);
  });

  it('is a change when we stop applying a field we own (the apply would remove it)', () => {
    expect(applyIsNoop(current, { conditions: [cond('Ready', 'True')] }, owned(readyOwned), manager)).toBe(false);
  });

  it('is a change when we stop applying one of our keyed entries', () => {
    const twoOwned = { 'f:conditions': { 'k:{"type":"Ready"}': condFields, 'k:{"type":"Foreign"}': condFields } };
    expect(applyIsNoop(current, { conditions: [cond('Ready', 'True')] }, owned(twoOwned), manager)).toBe(false);
  });

  it('is a change when we add a keyed entry', () => {
    const applied = { conditions: [cond('Ready', 'True'), cond('New', 'True')], phase: 'Up' };
    expect(applyIsNoop(current, applied, owned(readyOwned), manager)).toBe(false);
  });

  it('is a change when we never applied before', () => {
    expect(applyIsNoop(current, { phase: 'Up' }, [], manager)).toBe(false);
    expect(applyIsNoop(current, { phase: 'Up' }, undefined, manager)).toBe(false);
  });

  it('compares atomic lists as a whole', () => {
    const atomic = owned({ 'f:addresses': {} });
    const status = { addresses: [{ value: 'a' }, { value: 'b' }] };
    expect(applyIsNoop(status, { addresses: [{ value: 'a' }, { value: 'b' }] }, atomic, manager)).toBe(true);
    expect(applyIsNoop(status, { addresses: [{ value: 'a' }] }, atomic, manager)).toBe(false);
  });

  it('compares atomic maps as a whole', () => {
    const atomic = owned({ 'f:reference': {} });
    const status = { reference: { name: 'a', uid: '1' } };
    expect(applyIsNoop(status, { reference: { uid: '1', name: 'a' } }, atomic, manager)).toBe(true);
    expect(applyIsNoop(status, { reference: { name: 'a', uid: '2' } }, atomic, manager)).toBe(false);
    expect(applyIsNoop(status, { reference: { name: 'a' } }, atomic, manager)).toBe(false);
    // Owning only the map itself ('.') is no atomic map: applying a member would take it over, which is a change.
    expect(applyIsNoop(status, { reference: { name: 'a', uid: '1' } }, owned({ 'f:reference': { '.': {} } }), manager)).toBe(false);
  });

  it('handles set lists', () => {
    const set = owned({ 'f:zones': { 'v:"a"': {}, 'v:"b"': {} } });
    expect(applyIsNoop({ zones: ['b', 'a', 'c'] }, { zones: ['a', 'b'] }, set, manager)).toBe(true);
    expect(applyIsNoop({ zones: ['b', 'c'] }, { zones: ['a', 'b'] }, set, manager)).toBe(false);
  });

  it('ignores entries from updates (not applies) and other subresources', () => {
    const entries: ManagedFieldsEntry[] = [
      { manager, operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:phase': {} } } },
      { manager, operation: 'Apply', fieldsV1: { 'f:status': { 'f:phase': {} } } },
    ];
    expect(applyIsNoop(current, { phase: 'Up' }, entries, manager)).toBe(false);
  });

  it('checks an apply to the object itself (spec) against the entry without a subresource', () => {
    const entries: ManagedFieldsEntry[] = [
      { manager, operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:weight': {} } } },
      { manager, operation: 'Apply', fieldsV1: { 'f:spec': { 'f:weight': {} } } },
    ];
    const spec = { field: 'spec' };
    expect(applyIsNoop({ weight: 2, other: 'x' }, { weight: 2 }, entries, manager, spec)).toBe(true);
    expect(applyIsNoop({ weight: 2 }, { weight: 3 }, entries, manager, spec)).toBe(false);
    // The status entry does not speak for spec, nor the spec entry for status.
    expect(applyIsNoop({ weight: 2 }, { weight: 2 }, entries.slice(0, 1), manager, spec)).toBe(false);
    expect(applyIsNoop({ weight: 2 }, { weight: 2 }, entries.slice(1), manager)).toBe(false);
  });
});
