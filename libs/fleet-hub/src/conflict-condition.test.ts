import { describe, expect, it } from 'vitest';
import { conflictCondition } from './conflict-condition.js';
import { exportOf } from './test-support/exports.js';

describe('conflictCondition (upstream pkg/common/condition)', () => {
  it('says ConflictFound or NoConflictFound with upstream’s messages and the export’s generation', () => {
    const ise = exportOf({ cluster: 'member-1', generation: 4 });
    expect(conflictCondition(ise, true)).toEqual({
      type: 'Conflict',
      status: 'True',
      reason: 'ConflictFound',
      message: 'service shop/web is in conflict with other exported services',
      observedGeneration: 4,
    });
    expect(conflictCondition(ise, false)).toEqual({
      type: 'Conflict',
      status: 'False',
      reason: 'NoConflictFound',
      message: 'service shop/web is exported without conflict',
      observedGeneration: 4,
    });
  });
});
