import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../options.js';
import { startRawEmulator, type RawEmulator } from '../testing/raw-emulator.js';
import { TokenBucket, Throttler } from './throttling.js';

describe('TokenBucket', () => {
  it('grants the burst, then asks to retry after the time one token takes, then refills up to the burst', () => {
    let now = 0;
    const bucket = new TokenBucket({ burst: 3, refillPerSecond: 0.5 }, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()].map((outcome) => outcome.granted)).toEqual([true, true, true]);
    expect(bucket.take()).toEqual({ granted: false, retryAfterSeconds: 2 });
    now += 2000;
    expect(bucket.take()).toEqual({ granted: true, remaining: 0 });
    now += 60_000;
    expect(bucket.take()).toEqual({ granted: true, remaining: 2 });
  });

  it('keeps separate buckets for reads and writes per subscription, and none when off', () => {
    const throttler = new Throttler({ reads: { burst: 1, refillPerSecond: 1 }, writes: { burst: 1, refillPerSecond: 1 } }, () => 0);
    expect(throttler.admit('sub-a', 'GET', 'Microsoft.Cdn')).toEqual({ allowed: true, headers: { 'x-ms-ratelimit-remaining-subscription-reads': '0' } });
    expect(throttler.admit('sub-a', 'PUT', 'Microsoft.Cdn').allowed).toBe(true);
    expect(throttler.admit('SUB-A', 'GET', 'Microsoft.Cdn').allowed).toBe(false);
    expect(throttler.admit('sub-b', 'GET', 'Microsoft.Cdn').allowed).toBe(true);
    expect(new Throttler(undefined).admit('sub-a', 'GET', 'Microsoft.Cdn')).toEqual({ allowed: true, headers: {} });
  });

  it("defaults to ARM's buckets: reads 250 burst +25/s, writes 200 burst +10/s; configurable or off", () => {
    expect(resolveOptions().throttling).toMatchObject({ reads: { burst: 250, refillPerSecond: 25 }, writes: { burst: 200, refillPerSecond: 10 } });
    expect(resolveOptions({ throttling: { writes: { burst: 5 } } }).throttling?.writes).toEqual({ burst: 5, refillPerSecond: 10 });
    expect(resolveOptions({ throttling: false }).throttling).toBeUndefined();
  });
});

describe('ARM throttling over HTTPS', () => {
  let raw: RawEmulator;
  // Time moves only when the test says so: the buckets refill from this clock, not from the wall clock.
  let now = 1_700_000_000_000;
  const profiles = '/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Cdn/profiles';
  const list = `${profiles}?api-version=2024-02-01`;

  beforeAll(async () => {
    raw = await startRawEmulator({
      lroDelayMs: 0,
      clock: () => now,
      throttling: { reads: { burst: 3, refillPerSecond: 0.5 }, writes: { burst: 2, refillPerSecond: 0.25 } },
    });
    raw.emulator.admin.createResourceGroup({ subscriptionId: '00000000-0000-0000-0000-000000000001', name: 'rg' });
  });
  afterAll(() => raw.stop());

  it('answers 429 with Retry-After when the read bucket is empty, and recovers once Retry-After has passed', async () => {
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await raw.client.send('GET', list));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(responses.map((r) => r.headers['x-ms-ratelimit-remaining-subscription-reads'])).toEqual(['2', '1', '0', '0']);
    const throttled = responses[3];
    expect(throttled?.headers['retry-after']).toBe('2');
    expect(throttled?.body).toMatchObject({ error: { code: 'SubscriptionRequestsThrottled' } });
    expect(raw.emulator.admin.requestTotal({ method: 'GET', status: 429 })).toBe(1);
    now += 1_000;
    expect((await raw.client.send('GET', list)).status).toBe(429);
    now += 1_000;
    expect((await raw.client.send('GET', list)).status).toBe(200);
  });

  it('throttles writes in their own bucket, with x-ms-ratelimit-remaining-subscription-writes', async () => {
    const body = { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } };
    const writes = [];
    for (const name of ['w1', 'w2', 'w3']) writes.push(await raw.client.send('PUT', `${profiles}/${name}?api-version=2024-02-01`, body));
    expect(writes.map((r) => [r.status, r.headers['x-ms-ratelimit-remaining-subscription-writes']])).toEqual([
      [201, '1'],
      [201, '0'],
      [429, '0'],
    ]);
    // The read bucket is empty after the test above: writes never drew from it.
    expect(writes[2]?.headers['retry-after']).toBe('4');
    now += 4_000;
    expect((await raw.client.send('PUT', `${profiles}/w3?api-version=2024-02-01`, body)).status).toBe(201);
  });
});
