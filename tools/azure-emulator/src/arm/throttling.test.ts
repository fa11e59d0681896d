import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';
import { RawArmClient } from '../raw-arm-client.js';
import { TokenBucket, Throttler } from './throttling.js';

describe('TokenBucket', () => {
  it('grants the burst, then asks to retry after the time one token takes, then refills', () => {
    let now = 0;
    const bucket = new TokenBucket({ burst: 3, refillPerSecond: 0.5 }, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()].map((outcome) => outcome.granted)).toEqual([true, true, true]);
    expect(bucket.take()).toEqual({ granted: false, retryAfterSeconds: 2 });
    now += 2000;
    expect(bucket.take()).toEqual({ granted: true, remaining: 0 });
    now += 60_000;
    expect(bucket.remaining()).toBe(3);
  });

  it('keeps separate buckets for reads and writes per subscription, and none when off', () => {
    const throttler = new Throttler({ reads: { burst: 1, refillPerSecond: 1 }, writes: { burst: 1, refillPerSecond: 1 } }, () => 0);
    expect(throttler.admit('sub-a', 'GET')).toEqual({ allowed: true, headers: { 'x-ms-ratelimit-remaining-subscription-reads': '0' } });
    expect(throttler.admit('sub-a', 'PUT').allowed).toBe(true);
    expect(throttler.admit('SUB-A', 'GET').allowed).toBe(false);
    expect(throttler.admit('sub-b', 'GET').allowed).toBe(true);
    expect(new Throttler(undefined).admit('sub-a', 'GET')).toEqual({ allowed: true, headers: {} });
  });
});

describe('ARM throttling over HTTPS', () => {
  let emulator: RunningEmulator;
  let client: RawArmClient;
  const path = '/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Cdn/profiles?api-version=2024-02-01';

  beforeAll(async () => {
    emulator = await start({ throttling: { reads: { burst: 3, refillPerSecond: 20 } } });
    client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  });
  afterAll(async () => {
    client.close();
    await emulator.stop();
  });

  it('answers 429 with Retry-After when the read bucket is empty, and recovers once it refills', async () => {
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await client.send('GET', path));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(responses.map((r) => r.headers['x-ms-ratelimit-remaining-subscription-reads'])).toEqual(['2', '1', '0', '0']);
    const throttled = responses[3];
    expect(throttled?.headers['retry-after']).toBe('1');
    expect(throttled?.body).toMatchObject({ error: { code: 'SubscriptionRequestsThrottled' } });
    // 20 tokens a second: one is back within 50 ms.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await client.send('GET', path)).status).toBe(200);
    expect(emulator.admin.requestTotal({ method: 'GET', status: 429 })).toBe(1);
  });
});
