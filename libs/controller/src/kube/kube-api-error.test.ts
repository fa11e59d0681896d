import { describe, expect, it } from 'vitest';
import { isKubeRequestFailure, KubeApiError } from './kube-api-error.js';

describe('isKubeRequestFailure', () => {
  it('holds for an API server answer and for a server that cannot be reached, not for a bug', () => {
    expect(isKubeRequestFailure(new KubeApiError(409, 'Conflict', 'changed', 'PATCH', '/x'))).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT']) expect(isKubeRequestFailure(Object.assign(new Error(`connect ${code}`), { code }))).toBe(true);
    expect(isKubeRequestFailure(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isKubeRequestFailure(Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
    expect(isKubeRequestFailure(undefined)).toBe(false);
  });
});
