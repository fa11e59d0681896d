import { describe, expect, it } from 'vitest';
import { KubeApiError } from './kube-api-error.js';
import { isApiRequestFailure } from './request-failure.js';

describe('isApiRequestFailure', () => {
  it('is true for API answers, broken connections and timeouts', () => {
    expect(isApiRequestFailure(new KubeApiError(409, 'Conflict', 'changed', 'PATCH', '/x'))).toBe(true);
    expect(isApiRequestFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isApiRequestFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isApiRequestFailure(new DOMException('The operation timed out.', 'TimeoutError'))).toBe(true);
  });

  it('is false for programming errors', () => {
    expect(isApiRequestFailure(new TypeError('x is undefined'))).toBe(false);
    expect(isApiRequestFailure(Object.assign(new Error('odd'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
    expect(isApiRequestFailure('a string')).toBe(false);
  });
});
