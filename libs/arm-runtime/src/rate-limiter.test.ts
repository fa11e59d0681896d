import { describe, expect, it } from 'vitest';
import { ArmRateLimiter, armBucketsShare, DEFAULT_ARM_BUCKETS, withArmFlow } from './rate-limiter.js';

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

  it('serves a flow that starts waiting at the next token, however many requests another flow has queued', async () => {
    const { options } = fakeTime();
    const limiter = new ArmRateLimiter({ ...options, writes: { burst: 1, refillPerSecond: 1 } });
    const served: string[] = [];
    const request = (flow: string, id: string) => withArmFlow(flow, () => limiter.acquire('PUT').then(() => void served.push(id)));
    const coldStart = Array.from({ length: 20 }, (_, i) => request('gateway-a', `a${i}`));
    const change = request('gateway-b', 'b0');
    await Promise.all([...coldStart, change]);
    // a0 took the burst; b0 comes at the first token after it, before a's other 19.
    expect(served.slice(0, 3)).toEqual(['a0', 'b0', 'a1']);
  });

  it('serves backlogged flows in turn, each flow in its own arrival order', async () => {
    const { options } = fakeTime();
    const limiter = new ArmRateLimiter({ ...options, reads: { burst: 1, refillPerSecond: 10 } });
    const served: string[] = [];
    const request = (flow: string, id: string) => withArmFlow(flow, () => limiter.acquire('GET').then(() => void served.push(id)));
    const all = [];
    for (const flow of ['x', 'y', 'z']) for (let i = 0; i < 3; i++) all.push(request(flow, `${flow}${i}`));
    await Promise.all(all);
    // x0 took the burst; y and z started waiting behind x's queue and go first, then the three take turns.
    expect(served).toEqual(['x0', 'y0', 'z0', 'x1', 'y1', 'z1', 'x2', 'y2', 'z2']);
  });

  it('drops an aborted request from its queue without taking a token', async () => {
    const { clock, options } = fakeTime();
    const limiter = new ArmRateLimiter({ ...options, writes: { burst: 1, refillPerSecond: 1 } });
    await limiter.acquire('PUT');
    const aborted = new AbortController();
    const gone = limiter.acquire('PUT', aborted.signal);
    aborted.abort(new Error('reconcile cancelled'));
    await expect(gone).rejects.toThrow('reconcile cancelled');
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
