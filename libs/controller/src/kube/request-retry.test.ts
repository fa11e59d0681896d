import { describe, expect, it } from 'vitest';
import { requestRetry, THROTTLED_DEFAULT_DELAY_MS } from './request-retry.js';

describe('requestRetry', () => {
  it('waits Retry-After seconds on a 429, a default second without a usable header, never more than the cap', () => {
    expect(requestRetry(429, '3', 10_000)).toEqual({ reason: 'throttled', delayMs: 3_000 });
    expect(requestRetry(429, '0', 10_000)).toEqual({ reason: 'throttled', delayMs: 0 });
    expect(requestRetry(429, '60', 10_000)).toEqual({ reason: 'throttled', delayMs: 10_000 });
    for (const header of [undefined, '', 'soon', '-1', '1.5', 'Wed, 21 Oct 2026 07:28:00 GMT']) {
      expect(requestRetry(429, header, 10_000), String(header)).toEqual({ reason: 'throttled', delayMs: THROTTLED_DEFAULT_DELAY_MS });
    }
    expect(requestRetry(429, undefined, 200)).toEqual({ reason: 'throttled', delayMs: 200 });
  });

  it('retries a 5xx only when it carries Retry-After, and nothing else', () => {
    expect(requestRetry(503, '2', 10_000)).toEqual({ reason: 'server-error', delayMs: 2_000 });
    expect(requestRetry(500, '1', 10_000)).toEqual({ reason: 'server-error', delayMs: 1_000 });
    expect(requestRetry(500, undefined, 10_000)).toBeUndefined();
    expect(requestRetry(504, 'soon', 10_000)).toBeUndefined();
    for (const status of [200, 400, 403, 404, 409, 410, 422]) expect(requestRetry(status, '1', 10_000), String(status)).toBeUndefined();
  });
});
