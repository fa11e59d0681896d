import { describe, expect, it } from 'vitest';
import { ArmRateLimiter, armBucketsShare, DEFAULT_ARM_BUCKETS } from './rate-limiter.js';

function fakeTime() {
  const clock = { now: 0, waits: [] as number[] };
  return {
    clock,
    options: { now: () => clock.now, sleep: async (ms: number) => void (clock.waits.push(ms), (clock.now += ms)) },
  };
}

describe('ARM rate limiter', () => {
  it('defaults to half of ARM token buckets', () => {
    expect(DEFAULT_ARM_BUCKETS).toEqual({ reads: { burst: 125, refillPerSecond: 12.5 }, writes: { burst: 100, refillPerSecond: 5 } });
  });

  it('lets a burst through, then paces at the refill rate; reads and writes are separate buckets', async () => {
    const { clock, options } = fakeTime();
    const limiter = new ArmRateLimiter({ ...options, writes: { burst: 2, refillPerSecond: 4 }, reads: { burst: 1, refillPerSecond: 1 } });
    await Promise.all([limiter.acquire('PUT'), limiter.acquire('DELETE'), limiter.acquire('PATCH'), limiter.acquire('POST')]);
    expect(clock.waits).toEqual([250, 250]);
    await limiter.acquire('GET');
    expect(clock.waits).toEqual([250, 250]);
    await limiter.acquire('GET');
    expect(clock.waits).toEqual([250, 250, 1000]);
    expect(limiter.stats()).toEqual({ requests: { reads: 2, writes: 4 }, waitedMs: 1500 });
  });

  it('refills while idle, never above the burst', async () => {
    const { clock, options } = fakeTime();
    const limiter = new ArmRateLimiter({ ...options, writes: { burst: 2, refillPerSecond: 1 } });
    await limiter.acquire('PUT');
    await limiter.acquire('PUT');
    clock.now += 60_000;
    await limiter.acquire('PUT');
    await limiter.acquire('PUT');
    expect(clock.waits).toEqual([]);
    await limiter.acquire('PUT');
    expect(clock.waits).toEqual([1000]);
  });

  it('rejects settings that could never admit a request, naming them', () => {
    expect(() => new ArmRateLimiter({ reads: { refillPerSecond: 0 } })).toThrow(
      'rate limiter reads: burst must be at least 1 and refillPerSecond above 0; got burst 125, refillPerSecond 0',
    );
  });
});

describe('armBucketsShare', () => {
  it("takes the given share of both of ARM's buckets; the default is half", () => {
    expect(armBucketsShare(1)).toEqual({ reads: { burst: 250, refillPerSecond: 25 }, writes: { burst: 200, refillPerSecond: 10 } });
    expect(DEFAULT_ARM_BUCKETS).toEqual({ reads: { burst: 125, refillPerSecond: 12.5 }, writes: { burst: 100, refillPerSecond: 5 } });
    expect(armBucketsShare(0.001)).toEqual({ reads: { burst: 1, refillPerSecond: 0.025 }, writes: { burst: 1, refillPerSecond: 0.01 } });
    expect(() => armBucketsShare(0)).toThrow('ARM rate-limit share must be in (0, 1]; got 0');
    expect(() => armBucketsShare(1.5)).toThrow(RangeError);
  });
});
