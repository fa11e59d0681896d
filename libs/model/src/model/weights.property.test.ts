import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportionWeights, MAX_ORIGIN_WEIGHT } from './weights.js';

const shareLists = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })), { minLength: 1, maxLength: 200 });

function exactShares(raw: readonly number[]): number[] {
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => r / total);
}

describe('apportionWeights', () => {
  it('splits 1:3 as 333:1000 (25% / 75% of 1333)', () => {
    expect(apportionWeights([1, 3])).toEqual([333, 1000]);
  });

  it('gives zero shares weight 0 and everything 0 when nothing has a share', () => {
    expect(apportionWeights([0, 2, 0])).toEqual([0, 1000, 0]);
    expect(apportionWeights([0, 0])).toEqual([0, 0]);
  });

  it('keeps a positive share that is too small for the range at weight 1, never 0', () => {
    expect(apportionWeights([1, 1_000_000])).toEqual([1, 1000]);
  });

  it('always yields integers in 1..1000 for positive shares and 0 for zero shares', () => {
    fc.assert(
      fc.property(shareLists, (raw) => {
        const weights = apportionWeights(raw);
        expect(weights).toHaveLength(raw.length);
        raw.forEach((r, i) => {
          const w = weights[i] ?? -1;
          expect(Number.isInteger(w)).toBe(true);
          if (r === 0) expect(w).toBe(0);
          else expect(w >= 1 && w <= MAX_ORIGIN_WEIGHT).toBe(true);
        });
        if (raw.some((r) => r > 0)) expect(Math.max(...weights)).toBeGreaterThanOrEqual(MAX_ORIGIN_WEIGHT - 1);
      }),
      { seed: 1748, numRuns: 500 },
    );
  });

  it('keeps every share within 0.1 percentage point of the exact share wherever the range allows', () => {
    // "The range allows" when every positive share is at least 1/1000 of the largest (with 0.1% slack for
    // floating point): AFD's 1..1000 can then express every ratio.
    const representable = shareLists.filter((raw) => {
      const positive = raw.filter((r) => r > 0);
      return positive.length > 0 && Math.min(...positive) * MAX_ORIGIN_WEIGHT >= Math.max(...positive) * 1.001;
    });
    fc.assert(
      fc.property(representable, (raw) => {
        const weights = apportionWeights(raw);
        const total = weights.reduce((a, b) => a + b, 0);
        const exact = exactShares(raw);
        weights.forEach((w, i) => {
          expect(Math.abs(w / total - (exact[i] ?? 0))).toBeLessThanOrEqual(0.001);
        });
      }),
      { seed: 400, numRuns: 1000 },
    );
  });

  it('holds the bound for route weights times export weights as resolve builds them', () => {
    const backends = fc.array(
      fc.record({ routeWeight: fc.integer({ min: 1, max: 1_000_000 }), exports: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 40 }) }),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(backends, (bs) => {
        const routeTotal = bs.reduce((s, b) => s + b.routeWeight, 0);
        const exact = bs.flatMap((b) => {
          const exportTotal = b.exports.reduce((s, e) => s + e, 0);
          return b.exports.map((e) => (b.routeWeight / routeTotal) * (e / exportTotal));
        });
        const largest = Math.max(...exact);
        fc.pre(Math.min(...exact) * MAX_ORIGIN_WEIGHT >= largest * 1.001);
        const weights = apportionWeights(exact);
        const total = weights.reduce((a, b) => a + b, 0);
        weights.forEach((w, i) => expect(Math.abs(w / total - (exact[i] ?? 0))).toBeLessThanOrEqual(0.001));
      }),
      { seed: 99, numRuns: 500 },
    );
  });
});
