import { describe, expect, it } from 'vitest';
import type { OperationResult } from './apply.js';
import type { ArmFailure } from '@fleet-gateway/arm-runtime';
import type { Operation } from '../diff/operations.js';
import { TerminalRefusals } from './terminal-refusals.js';

const domain = (hostName: string): Operation => ({
  action: 'create',
  ref: { kind: 'customDomain', profile: 'p', customDomain: 'cd' },
  body: { hostName },
  changes: [],
  reason: 'test',
  provenance: [],
});
const failure = (status: number, category: ArmFailure['category']): ArmFailure => ({
  class: status === 409 ? 'transient' : 'terminal',
  category,
  status,
  code: 'X',
  cause: 'refused',
});
const failed = (op: Operation, f: ArmFailure): OperationResult => ({ op, outcome: 'failed', failure: f });

describe('TerminalRefusals', () => {
  it('recalls a validation refusal of the same body until the recheck interval passes', () => {
    let now = 0;
    const refusals = new TerminalRefusals({ recheckMs: 1000, now: () => now });
    refusals.record([failed(domain('long'), failure(400, 'validation'))]);
    expect(refusals.recall(domain('long'))?.status).toBe(400);
    expect(refusals.recall(domain('short'))).toBeUndefined();
    now = 999;
    refusals.record([{ ...failed(domain('long'), failure(400, 'validation')), recalled: true } as OperationResult]);
    now = 1000;
    expect(refusals.recall(domain('long'))).toBeUndefined();
  });

  it('never remembers what depends on more than the body: conflicts, authorization, missing parents, quota', () => {
    const refusals = new TerminalRefusals();
    refusals.record([
      failed(domain('a'), failure(409, 'conflict')),
      failed(domain('b'), failure(403, 'authorization')),
      failed(domain('c'), failure(404, 'not-found')),
      failed(domain('d'), failure(400, 'quota')),
    ]);
    expect(refusals.size).toBe(0);
  });

  it('forgets a refusal once the write is no longer refused or no longer planned', () => {
    const refusals = new TerminalRefusals();
    refusals.record([failed(domain('long'), failure(400, 'validation'))]);
    refusals.record([{ op: domain('long'), outcome: 'done' }]);
    expect(refusals.recall(domain('long'))).toBeUndefined();
    refusals.record([failed(domain('long'), failure(400, 'validation'))]);
    refusals.record([]);
    expect(refusals.size).toBe(0);
  });
});
