import type { ReconcileReport, ResourceReport } from '@fleet-gateway/azure-frontdoor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DRIFT_CHECK_FLOOR_MS, DRIFT_CHECK_READ_SHARE, driftCheckPeriodMs, driftCheckReads } from './drift-check-period.js';

const reads = fc.integer({ min: 0, max: 10_000_000 });
// From the smallest share of ARM's read refill (--arm-rate-limit-share 0.001: 0.025/s) to all of it (25/s).
const refill = fc.double({ min: 0.025, max: 25, noNaN: true });

describe('driftCheckPeriodMs', () => {
  it('an explicit period is taken as it is, whatever the Gateways cost', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 86_400_000 }), reads, (periodMs, sweep) => driftCheckPeriodMs({ periodMs }, sweep) === periodMs));
  });

  it('automatic: never under the floor, and every Gateway checked once per period stays within the read share', () => {
    fc.assert(
      fc.property(reads, refill, (sweep, readRefillPerSecond) => {
        const period = driftCheckPeriodMs({ readRefillPerSecond }, sweep);
        expect(period).toBeGreaterThanOrEqual(DRIFT_CHECK_FLOOR_MS);
        expect(sweep / (period / 1000)).toBeLessThanOrEqual(DRIFT_CHECK_READ_SHARE * readRefillPerSecond * (1 + 1e-12));
      }),
    );
  });

  it('automatic: above the floor it is the shortest such period (a millisecond less would exceed the share)', () => {
    fc.assert(
      fc.property(reads, refill, (sweep, readRefillPerSecond) => {
        const period = driftCheckPeriodMs({ readRefillPerSecond }, sweep);
        fc.pre(period > DRIFT_CHECK_FLOOR_MS);
        expect(sweep / ((period - 1) / 1000)).toBeGreaterThan(DRIFT_CHECK_READ_SHARE * readRefillPerSecond);
      }),
    );
  });

  it('automatic: more reads per sweep never shorten the period, a larger refill never lengthens it', () => {
    fc.assert(
      fc.property(reads, reads, refill, refill, (a, b, r1, r2) => {
        const [fewer, more] = a <= b ? [a, b] : [b, a];
        const [small, large] = r1 <= r2 ? [r1, r2] : [r2, r1];
        expect(driftCheckPeriodMs({ readRefillPerSecond: small }, fewer)).toBeLessThanOrEqual(driftCheckPeriodMs({ readRefillPerSecond: small }, more));
        expect(driftCheckPeriodMs({ readRefillPerSecond: large }, more)).toBeLessThanOrEqual(driftCheckPeriodMs({ readRefillPerSecond: small }, more));
      }),
    );
  });

  it('at the default share (12.5 reads/s), Gateways of 12 reads: 25 keep the floor, 100 need 8 minutes, 500 need 40', () => {
    expect(driftCheckPeriodMs({ readRefillPerSecond: 12.5 }, 25 * 12)).toBe(DRIFT_CHECK_FLOOR_MS);
    expect(driftCheckPeriodMs({ readRefillPerSecond: 12.5 }, 100 * 12)).toBe(8 * 60_000);
    expect(driftCheckPeriodMs({ readRefillPerSecond: 12.5 }, 500 * 12)).toBe(40 * 60_000);
  });
});

const resource = (kind: ResourceReport['kind'], action: ResourceReport['action'] = 'unchanged'): ResourceReport => ({
  kind,
  name: `${kind}-${action}`,
  action,
  provenance: [],
});

describe('driftCheckReads', () => {
  it("a reconcile that wrote nothing was a drift check: its reads are the check's cost", () => {
    expect(driftCheckReads({ reads: 17, writes: 0, resources: [resource('endpoint')] } as unknown as ReconcileReport)).toBe(17);
  });

  it('a reconcile that wrote counts its polls too: the cost is the observation of what it left, 6 + E + G + S', () => {
    const resources = [
      resource('profile', 'created'),
      resource('endpoint', 'created'),
      resource('originGroup', 'created'),
      resource('originGroup', 'unchanged'),
      resource('originGroup', 'deleted'),
      resource('origin', 'created'),
      resource('ruleSet', 'updated'),
      resource('rule', 'created'),
      resource('route', 'created'),
    ];
    expect(driftCheckReads({ reads: 60, writes: 9, resources } as unknown as ReconcileReport)).toBe(6 + 1 + 2 + 1);
  });
});
