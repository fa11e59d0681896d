import { describe, expect, it } from 'vitest';
import { spliceOwnedEntries } from './splice-owned-entries.js';

interface Parent {
  parentRef: { name: string };
  controllerName: string;
  note?: string;
}
const ours = 'example.com/ours';
const rule = { keyFields: ['parentRef', 'controllerName'], isOurs: (p: Parent) => p.controllerName === ours };
const entry = (name: string, controllerName: string, note?: string): Parent => ({
  parentRef: { name },
  controllerName,
  ...(note ? { note } : {}),
});

describe('spliceOwnedEntries', () => {
  it('keeps foreign entries untouched and in place, replacing ours in place', () => {
    const current = [entry('a', 'other'), entry('a', ours, 'old'), entry('b', 'other')];
    expect(spliceOwnedEntries(current, [entry('a', ours, 'new')], rule)).toEqual([entry('a', 'other'), entry('a', ours, 'new'), entry('b', 'other')]);
  });

  it('drops our entries that are no longer desired and appends new ones', () => {
    const current = [entry('a', ours), entry('x', 'other'), entry('b', ours)];
    expect(spliceOwnedEntries(current, [entry('c', ours), entry('b', ours)], rule)).toEqual([entry('x', 'other'), entry('b', ours), entry('c', ours)]);
  });

  it('returns an equal list when nothing changed, so the caller can skip the write', () => {
    const current = [entry('a', 'other'), entry('a', ours), entry('b', ours)];
    expect(spliceOwnedEntries(current, [entry('b', ours), entry('a', ours)], rule)).toEqual(current);
  });

  it('refuses to write an entry that is not ours', () => {
    expect(() => spliceOwnedEntries([], [entry('a', 'other')], rule)).toThrow('is not ours');
  });
});
