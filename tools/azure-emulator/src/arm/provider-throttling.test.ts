import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../options.js';
import { startRawEmulator, type RawEmulator } from '../testing/raw-emulator.js';
import { SlidingWindowLimit } from './provider-throttling.js';
import { Throttler } from './throttling.js';

describe('SlidingWindowLimit', () => {
  it('admits the limit within a window, asks to retry when the oldest request leaves it, then admits again', () => {
    let now = 0;
    const window = new SlidingWindowLimit(2, 300_000, () => now);
    expect([window.take(), window.take()]).toEqual([{ granted: true }, { granted: true }]);
    expect(window.take()).toEqual({ granted: false, retryAfterSeconds: 300 });
    now += 100_000;
    expect(window.take()).toEqual({ granted: false, retryAfterSeconds: 200 });
    now += 199_500;
    expect(window.take()).toEqual({ granted: false, retryAfterSeconds: 1 });
    now += 500; // both requests of time 0 have left the window
    expect([window.take(), window.take(), window.take()]).toEqual([{ granted: true }, { granted: true }, { granted: false, retryAfterSeconds: 300 }]);
  });

  it('keeps counting right after dropping many expired requests (the window over several thousand requests)', () => {
    let now = 0;
    const window = new SlidingWindowLimit(1_500, 1_000, () => now);
    for (let round = 0; round < 4; round++) {
      const outcomes = Array.from({ length: 1_501 }, () => window.take().granted);
      expect(outcomes.filter(Boolean).length).toBe(1_500);
      expect(outcomes.at(-1)).toBe(false);
      now += 1_000;
    }
  });
});

describe('Microsoft.Network throttling scope', () => {
  it('defaults to 10,000 reads and 1,000 writes per 300 s; configurable; off with network: false or throttling: false', () => {
    expect(resolveOptions().throttling?.network).toEqual({ reads: 10_000, writes: 1_000, windowSeconds: 300 });
    expect(resolveOptions({ throttling: { network: { writes: 5 } } }).throttling?.network).toEqual({ reads: 10_000, writes: 5, windowSeconds: 300 });
    expect(resolveOptions({ throttling: { network: false } }).throttling).toEqual({
      reads: { burst: 250, refillPerSecond: 25 },
      writes: { burst: 200, refillPerSecond: 10 },
    });
    expect(resolveOptions({ throttling: false }).throttling).toBeUndefined();
  });

  it('counts only Microsoft.Network requests, per subscription, reads apart from writes, on top of the ARM buckets', () => {
    const throttler = new Throttler(
      { reads: { burst: 100, refillPerSecond: 1 }, writes: { burst: 100, refillPerSecond: 1 }, network: { reads: 1, writes: 1, windowSeconds: 300 } },
      () => 0,
    );
    expect(throttler.admit('sub-a', 'GET', 'microsoft.network').allowed).toBe(true);
    const refused = throttler.admit('SUB-A', 'GET', 'Microsoft.Network');
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 300, headers: { 'x-ms-ratelimit-remaining-subscription-reads': '98' } });
    expect(throttler.admit('sub-a', 'GET', 'Microsoft.Cdn').allowed).toBe(true);
    expect(throttler.admit('sub-a', 'DELETE', 'Microsoft.Network').allowed).toBe(true);
    expect(throttler.admit('sub-b', 'GET', 'Microsoft.Network').allowed).toBe(true);
  });
});

describe('Microsoft.Network throttling over HTTPS', () => {
  let raw: RawEmulator;
  // Time moves only when the test says so: the window slides on this clock, not on the wall clock.
  let now = 1_700_000_000_000;
  const subscription = '/subscriptions/00000000-0000-0000-0000-000000000002/resourceGroups/rg/providers';
  const loadBalancers = `${subscription}/Microsoft.Network/loadBalancers?api-version=2025-05-01`;
  const missingLoadBalancer = `${subscription}/Microsoft.Network/loadBalancers/none?api-version=2025-05-01`;
  const profiles = `${subscription}/Microsoft.Cdn/profiles?api-version=2024-02-01`;

  beforeAll(async () => {
    raw = await startRawEmulator({
      lroDelayMs: 0,
      clock: () => now,
      throttling: { reads: { burst: 1_000 }, writes: { burst: 1_000 }, network: { reads: 3, writes: 2, windowSeconds: 300 } },
    });
    raw.emulator.admin.createResourceGroup({ subscriptionId: '00000000-0000-0000-0000-000000000002', name: 'rg' });
  });
  afterAll(() => raw.stop());

  it('answers 429 with Retry-After once the window holds the limit of reads, leaves Microsoft.Cdn alone, and recovers as the window slides', async () => {
    const reads = [];
    for (let i = 0; i < 3; i++) {
      reads.push(await raw.client.send('GET', loadBalancers));
      now += 10_000;
    }
    const throttled = await raw.client.send('GET', loadBalancers);
    expect([...reads.map((r) => r.status), throttled.status]).toEqual([200, 200, 200, 429]);
    expect(throttled.headers['retry-after']).toBe('270');
    expect(throttled.body).toMatchObject({
      error: { code: 'SubscriptionRequestsThrottled', message: expect.stringContaining("exceeded the limit of '3' for time interval '00:05:00'") },
    });
    expect(throttled.headers['x-ms-ratelimit-remaining-subscription-reads']).toBeDefined();
    expect((await raw.client.send('GET', profiles)).status).toBe(200);
    now += 270_000;
    expect((await raw.client.send('GET', loadBalancers)).status).toBe(200);
    expect((await raw.client.send('GET', loadBalancers)).status).toBe(429);
  });

  it('limits writes (PUT, PATCH, DELETE, POST) in their own window', async () => {
    const writes = [];
    for (let i = 0; i < 3; i++) writes.push(await raw.client.send('DELETE', missingLoadBalancer));
    expect(writes.map((r) => [r.status, r.headers['retry-after']])).toEqual([
      [204, undefined],
      [204, undefined],
      [429, '300'],
    ]);
    expect(raw.emulator.admin.requestTotal({ method: 'DELETE', status: 429 })).toBe(1);
    now += 300_000;
    expect((await raw.client.send('DELETE', missingLoadBalancer)).status).toBe(204);
  });
});
