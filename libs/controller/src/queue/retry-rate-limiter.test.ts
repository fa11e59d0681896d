import { describe, expect, it } from 'vitest';
import { RetryRateLimiter } from './retry-rate-limiter.js';

const options = { perKey: { baseMs: 10, maxMs: 100 }, overall: { perSecond: 1000, burst: 1000 } };

describe('RetryRateLimiter', () => {
  it('doubles per key up to the cap, independently for each key', () => {
    const limiter = new RetryRateLimiter(options, 0);
    const a = [1, 2, 3, 4, 5].map(() => limiter.when('a', 0));
    expect(a).toEqual([10, 20, 40, 80, 100]);
    expect(limiter.when('b', 0)).toBe(10);
  });

  it('starts over after forget', () => {
    const limiter = new RetryRateLimiter(options, 0);
    limiter.when('a', 0);
    limiter.when('a', 0);
    limiter.forget('a');
    expect(limiter.when('a', 0)).toBe(10);
  });

  it('applies the overall limit when many keys fail at once', () => {
    const limiter = new RetryRateLimiter({ perKey: { baseMs: 1, maxMs: 1 }, overall: { perSecond: 10, burst: 3 } }, 0);
    const delays = ['a', 'b', 'c', 'd', 'e'].map((key) => limiter.when(key, 0));
    expect(delays).toEqual([1, 1, 1, 100, 200]);
  });
});
