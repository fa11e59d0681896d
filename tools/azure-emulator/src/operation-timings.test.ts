import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperationAction } from './arm/lro.js';
import { AFD } from './cdn/afd-common.js';
import { ruleSetKind } from './cdn/rule-sets.js';
import { AZURE_OPERATION_DURATIONS, AZURE_RETRY_AFTER, operationTiming, type DurationBounds } from './operation-timings.js';

const ACTIONS: readonly OperationAction[] = ['create', 'update', 'delete'];
const LOAD_BALANCER = 'microsoft.network/loadbalancers';

function boundsOf(kindKey: string, action: OperationAction): DurationBounds {
  const timings = AZURE_OPERATION_DURATIONS.find((entry) => entry.kindKey === kindKey);
  if (timings === undefined) throw new Error(`no timings for ${kindKey}`);
  return timings[action];
}

describe('the azure timing table', () => {
  it('has bounds for every Front Door kind and action, minimum no more than maximum', () => {
    expect(AZURE_OPERATION_DURATIONS.map((entry) => entry.kindKey).sort()).toEqual(Object.values(AFD).sort());
    for (const entry of AZURE_OPERATION_DURATIONS) {
      for (const action of ACTIONS) {
        const { minMs, maxMs } = entry[action];
        expect(0 <= minMs && minMs <= maxMs, `${entry.kind} ${action}`).toBe(true);
      }
    }
  });

  it('takes every derived figure from a measured one, named by its basis, with the same bounds', () => {
    for (const entry of AZURE_OPERATION_DURATIONS) {
      for (const action of ACTIONS) {
        const bounds = entry[action];
        if (bounds.basis === 'measured' || bounds.basis === 'as the spec: not long-running') continue;
        const [, kind, from] = /^as (.+) (create|update|delete)$/.exec(bounds.basis) ?? [];
        const source = AZURE_OPERATION_DURATIONS.find((candidate) => candidate.kind === kind)?.[from as OperationAction];
        expect(source?.basis, `${entry.kind} ${action} ${bounds.basis}`).toBe('measured');
        expect([bounds.minMs, bounds.maxMs]).toEqual([source?.minMs, source?.maxMs]);
      }
    }
  });

  it('marks not long-running only what the spec makes synchronous (rule set create and update)', () => {
    const synchronous = AZURE_OPERATION_DURATIONS.flatMap((entry) =>
      ACTIONS.filter((action) => entry[action].basis === 'as the spec: not long-running').map((action) => `${entry.kind} ${action}`),
    );
    expect(synchronous).toEqual(['rule set create', 'rule set update']);
    expect([ruleSetKind.lro.put, ruleSetKind.lro.patch, ruleSetKind.lro.delete]).toEqual([false, false, true]);
  });
});

describe('operationTiming', () => {
  it('fast: every operation lroDelayMs by a real-time timer, lroRetryAfterSeconds on answers and polls, or none', () => {
    const fast = operationTiming({ profile: 'fast', lroDelayMs: 100, lroRetryAfterSeconds: 1, seed: 1 });
    expect([fast.ends, fast.durationMs(AFD.route, 'create'), fast.durationMs(LOAD_BALANCER, 'delete'), fast.durationMs(AFD.customDomain, undefined)]).toEqual([
      'timer',
      100,
      100,
      100,
    ]);
    expect([fast.acceptedRetryAfterSeconds, fast.pollRetryAfterSeconds, fast.operationHeadersWhenEnded]).toEqual([1, 1, true]);
    const silent = operationTiming({ profile: 'fast', lroDelayMs: 5, seed: 1 });
    expect([silent.acceptedRetryAfterSeconds, silent.pollRetryAfterSeconds]).toEqual([undefined, undefined]);
  });

  it('azure: ends by the clock, Retry-After 10 s on the answer that starts an operation and none on polls, no operation URLs once ended', () => {
    const azure = operationTiming({ profile: 'azure', lroDelayMs: 100, lroRetryAfterSeconds: 1, seed: 1 });
    expect([azure.ends, azure.acceptedRetryAfterSeconds, azure.pollRetryAfterSeconds, azure.operationHeadersWhenEnded]).toEqual([
      'clock',
      10,
      undefined,
      false,
    ]);
    expect(AZURE_RETRY_AFTER).toEqual({ acceptedSeconds: 10, pollSeconds: undefined });
  });

  it('azure: every draw lies within its kind and action bounds, whatever the seed', () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const azure = operationTiming({ profile: 'azure', lroDelayMs: 100, seed });
        for (const entry of AZURE_OPERATION_DURATIONS) {
          for (const action of ACTIONS) {
            const duration = azure.durationMs(entry.kindKey, action);
            if (duration < entry[action].minMs || duration > entry[action].maxMs) return false;
          }
        }
        return true;
      }),
    );
  });

  it('azure: the draws spread over the bounds (jitter), not one fixed value', () => {
    const azure = operationTiming({ profile: 'azure', lroDelayMs: 100, seed: 1 });
    const { minMs, maxMs } = boundsOf(AFD.route, 'create');
    const draws = Array.from({ length: 200 }, () => azure.durationMs(AFD.route, 'create'));
    const span = maxMs - minMs;
    expect(Math.min(...draws)).toBeLessThan(minMs + span / 10);
    expect(Math.max(...draws)).toBeGreaterThan(maxMs - span / 10);
  });

  it('azure: one seed gives one sequence of durations; another seed another', () => {
    const sequence = (seed: number): number[] => {
      const azure = operationTiming({ profile: 'azure', lroDelayMs: 100, seed });
      return AZURE_OPERATION_DURATIONS.flatMap((entry) => ACTIONS.map((action) => azure.durationMs(entry.kindKey, action)));
    };
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
  });

  it('azure: kinds and POST actions with no Front Door figure keep lroDelayMs', () => {
    const azure = operationTiming({ profile: 'azure', lroDelayMs: 250, seed: 1 });
    expect([azure.durationMs(LOAD_BALANCER, 'create'), azure.durationMs(AFD.customDomain, undefined)]).toEqual([250, 250]);
    expect(azure.durationMs(AFD.originGroup, 'create')).toBe(0);
  });
});
