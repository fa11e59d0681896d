import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OperationDurations } from './operation-durations.js';

describe('OperationDurations: how long to wait before the first read of an operation', () => {
  it('knows nothing before an operation ended; then borrows the same action, else any action', () => {
    const durations = new OperationDurations();
    expect(durations.expectedMs('route', 'create')).toBeUndefined();
    durations.ended('profile', 'create', 90_000, 3);
    durations.ended('origin', 'create', 40_000, 2);
    expect(durations.expectedMs('profile', 'create')).toBe(90_000);
    expect(durations.expectedMs('route', 'create')).toBe(90_000);
    expect(durations.expectedMs('route', 'delete')).toBe(90_000);
    durations.ended('route', 'delete', 20_000, 2);
    expect(durations.expectedMs('origin', 'delete')).toBe(20_000);
  });

  it('an operation seen ended at its first read lowers the estimate; one seen running first raises it to when it was seen ended', () => {
    const durations = new OperationDurations();
    durations.ended('route', 'create', 60_000, 1);
    expect(durations.expectedMs('route', 'create')).toBe(54_000);
    durations.ended('route', 'create', 70_000, 2);
    expect(durations.expectedMs('route', 'create')).toBe(70_000);
  });

  it('never expects more than 5 min nor less than nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -1e6, max: 1e9, noNaN: true }), fc.integer({ min: 1, max: 20 }))), (ends) => {
        const durations = new OperationDurations();
        for (const [elapsed, reads] of ends) durations.ended('origin', 'update', elapsed, reads);
        const expected = durations.expectedMs('origin', 'update');
        if (ends.length === 0) {
          expect(expected).toBeUndefined();
        } else {
          expect(expected).toBeGreaterThanOrEqual(0);
          expect(expected).toBeLessThanOrEqual(5 * 60_000);
        }
      }),
    );
  });
});
