import { describe, expect, it } from 'vitest';
import { findCondition, isConditionTrue, stampConditions, type Condition } from './conditions.js';

const earlier = '2024-01-01T00:00:00Z';
const now = new Date('2025-06-01T12:34:56.789Z');
const existing: Condition[] = [
  { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'ok', lastTransitionTime: earlier },
  { type: 'Programmed', status: 'False', reason: 'Pending', message: 'waiting', lastTransitionTime: earlier },
  { type: 'Foreign', status: 'True', reason: 'X', message: '', lastTransitionTime: earlier },
];

describe('stampConditions', () => {
  it('keeps the transition time when the status is unchanged, even if reason and message changed', () => {
    const [accepted] = stampConditions(existing, [{ type: 'Accepted', status: 'True', reason: 'Other', message: 'new' }], now);
    expect(accepted).toEqual({ type: 'Accepted', status: 'True', reason: 'Other', message: 'new', lastTransitionTime: earlier });
  });

  it('stamps now, at second precision, when the status changed or the condition is new', () => {
    const stamped = stampConditions(
      existing,
      [
        { type: 'Programmed', status: 'True', reason: 'Programmed', message: '' },
        { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', message: '' },
      ],
      now,
    );
    expect(stamped.map((c) => c.lastTransitionTime)).toEqual(['2025-06-01T12:34:56Z', '2025-06-01T12:34:56Z']);
  });

  it('returns only the desired types, in the desired order, without touching its inputs', () => {
    const desired = [
      { type: 'Programmed', status: 'False' as const, reason: 'Pending', message: 'waiting' },
      { type: 'Accepted', status: 'True' as const, reason: 'Accepted', message: 'ok' },
    ];
    const stamped = stampConditions(existing, desired, now);
    expect(stamped).toEqual([
      { ...desired[0], lastTransitionTime: earlier },
      { ...desired[1], lastTransitionTime: earlier },
    ]);
    expect(desired[0]).not.toHaveProperty('lastTransitionTime');
    expect(existing).toHaveLength(3);
  });
});

describe('findCondition / isConditionTrue', () => {
  it('finds by type', () => {
    expect(findCondition(existing, 'Programmed')?.reason).toBe('Pending');
    expect(findCondition(existing, 'Missing')).toBeUndefined();
    expect(isConditionTrue(existing, 'Accepted')).toBe(true);
    expect(isConditionTrue(existing, 'Programmed')).toBe(false);
    expect(isConditionTrue(undefined, 'Accepted')).toBe(false);
  });
});
