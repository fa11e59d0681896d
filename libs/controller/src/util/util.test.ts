import { describe, expect, it } from 'vitest';
import { exponentialDelay, withJitter } from './backoff.js';
import { jsonEqual } from './deep-equal.js';
import { formatMicroTime, formatTime } from './micro-time.js';

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    const options = { baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 100].map((n) => exponentialDelay(options, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('jitter only ever lengthens, by at most the factor', () => {
    expect(withJitter(1000, 0.5, () => 0)).toBe(1000);
    expect(withJitter(1000, 0.5, () => 0.999)).toBeCloseTo(1499.5);
  });
});

describe('jsonEqual', () => {
  it('ignores key order and undefined-valued keys, not array order', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
  });
});

describe('time formats', () => {
  it('MicroTime has six fractional digits; metav1.Time has none', () => {
    const date = new Date('2025-01-02T03:04:05.678Z');
    expect(formatMicroTime(date)).toBe('2025-01-02T03:04:05.678000Z');
    expect(formatTime(date)).toBe('2025-01-02T03:04:05Z');
  });
});
