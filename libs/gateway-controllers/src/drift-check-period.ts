import { DEFAULT_ARM_BUCKETS } from '@fleet-gateway/arm-runtime';
import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';

/**
 * How often a programmed Gateway whose model did not change is read from Azure again, to find and correct what was
 * changed there outside the hub (an origin deleted, a route rewritten). `periodMs` is a fixed period
 * (`--drift-check-period=20m`); `readRefillPerSecond` makes it automatic: the shortest period that keeps the drift
 * checks of every programmed Gateway within DRIFT_CHECK_READ_SHARE of the hub's ARM read refill, never under
 * DRIFT_CHECK_FLOOR_MS.
 */
export type DriftCheckPeriod = { readonly periodMs: number } | { readonly readRefillPerSecond: number };

/** Drift checks take at most this share of the hub's read refill; the rest stays for the changes teams make. */
export const DRIFT_CHECK_READ_SHARE = 0.2;

/** The automatic period is never shorter: a small hub's few Gateways need no quicker repair than this. */
export const DRIFT_CHECK_FLOOR_MS = 5 * 60_000;

/** Automatic, sized to the read refill of the default --arm-rate-limit-share (DEFAULT_ARM_BUCKETS). */
export const DEFAULT_DRIFT_CHECK: DriftCheckPeriod = { readRefillPerSecond: DEFAULT_ARM_BUCKETS.reads.refillPerSecond };

/**
 * The drift period, in ms, when one check of every programmed Gateway costs `readsPerSweep` ARM reads (the sum of
 * their last observations' reads, `1 + Σ lists` each; see libs/azure-frontdoor's README).
 */
export function driftCheckPeriodMs(period: DriftCheckPeriod, readsPerSweep: number): number {
  if ('periodMs' in period) return period.periodMs;
  const budgetPerSecond = DRIFT_CHECK_READ_SHARE * period.readRefillPerSecond;
  return Math.max(DRIFT_CHECK_FLOOR_MS, Math.ceil((readsPerSweep / budgetPerSecond) * 1000));
}

/** The profile GET and its five child lists (endpoints, custom domains, origin groups, rule sets, security policies). */
const PROFILE_READS = 6;
const LISTED_PER_RESOURCE = new Set(['endpoint', 'originGroup', 'ruleSet']);

/**
 * What one drift check of this Gateway costs in ARM reads. A reconcile that wrote nothing was one: its reads. One
 * that wrote also counted its writes' polls, so the observation is counted from what it left in Azure: 6 + E + G + S
 * (a list per endpoint, origin group and rule set), the one-page case of libs/azure-frontdoor's formula.
 */
export function driftCheckReads(report: ReconcileReport): number {
  if (report.writes === 0) return report.reads;
  return PROFILE_READS + report.resources.filter((r) => LISTED_PER_RESOURCE.has(r.kind) && r.action !== 'deleted').length;
}
