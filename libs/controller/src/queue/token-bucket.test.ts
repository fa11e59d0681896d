import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('grants the burst immediately, then spaces reservations at the rate', () => {
    const bucket = new TokenBucket({ perSecond: 10, burst: 2 }, 0);
    expect([bucket.reserve(0), bucket.reserve(0), bucket.reserve(0), bucket.reserve(0)]).toEqual([0, 0, 100, 200]);
  });

  it('refills over time up to the burst only', () => {
    const bucket = new TokenBucket({ perSecond: 10, burst: 2 }, 0);
    bucket.reserve(0);
    bucket.reserve(0);
    expect(bucket.reserve(10_000)).toBe(0);
    expect(bucket.reserve(10_000)).toBe(0);
    expect(bucket.reserve(10_000)).toBe(100);
  });

  it('tryTake never goes into debt', () => {
    const bucket = new TokenBucket({ perSecond: 1, burst: 1 }, 0);
    expect(bucket.tryTake(0)).toBe(true);
    expect(bucket.tryTake(0)).toBe(false);
    expect(bucket.tryTake(999)).toBe(false);
    expect(bucket.tryTake(1000)).toBe(true);
  });

  it('rejects a rate that is not positive, naming the value', () => {
    expect(() => new TokenBucket({ perSecond: 0, burst: 1 }, 0)).toThrow('perSecond must be > 0, got 0');
  });
});
