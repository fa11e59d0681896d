import { afterEach, describe, expect, it } from 'vitest';
import { classifyArmError } from '@fleet-gateway/arm-runtime';
import { ArmWriteFencedError, retryAfterMs, type RetryAfterCapped } from '@fleet-gateway/arm-runtime';
import { startHarness, TEST_SCOPE, type Harness } from '../testing/emulator-harness.js';

const PROFILE = 'Microsoft.Cdn/profiles';
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.emulator.stop();
  harness = undefined;
});

async function withProfile(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  harness = await startHarness(options);
  await harness.clients.cdn.profiles.beginCreateAndWait(
    TEST_SCOPE.resourceGroup,
    'p1',
    { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } },
    { updateIntervalInMs: 5 },
  );
  harness.emulator.admin.resetCounters();
  return harness;
}

function getProfile(h: Harness) {
  return h.clients.cdn.profiles.get(TEST_SCOPE.resourceGroup, 'p1');
}

describe('ARM retry policy and rate limiter (against the emulator)', () => {
  it('a 429 storm is retried after Retry-After, each attempt once: no second retry layer', async () => {
    const waits: number[] = [];
    const h = await withProfile({ retry: { sleep: async (ms) => void waits.push(ms) } });
    h.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'GET', pathPattern: '/profiles/p1$', count: 3, retryAfterSeconds: 2 });
    const before = h.limiter.stats().requests.reads;
    await expect(getProfile(h)).resolves.toMatchObject({ name: 'p1' });
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE, status: 429 })).toBe(3);
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE })).toBe(4);
    expect(waits).toEqual([2000, 2000, 2000]);
    expect(h.limiter.stats().requests.reads - before).toBe(4);
  });

  it('the WAF client (@azure/arm-frontdoor 6, a newer generator) has the same single retry layer and limiter', async () => {
    const waits: number[] = [];
    harness = await startHarness({ retry: { sleep: async (ms) => void waits.push(ms) } });
    const h = harness;
    h.emulator.admin.createWafPolicy({ subscriptionId: TEST_SCOPE.subscriptionId, resourceGroup: 'waf', name: 'edgePolicy', sku: 'Standard_AzureFrontDoor' });
    h.emulator.admin.resetCounters();
    h.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'GET', pathPattern: '/edgePolicy$', count: 2, retryAfterSeconds: 1 });
    const before = h.limiter.stats().requests.reads;
    await expect(h.clients.wafPolicies(TEST_SCOPE.subscriptionId).get('waf', 'edgePolicy')).resolves.toMatchObject({ name: 'edgePolicy' });
    const wafType = 'Microsoft.Network/frontDoorWebApplicationFirewallPolicies';
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: wafType, status: 429 })).toBe(2);
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: wafType })).toBe(3);
    expect(waits).toEqual([1000, 1000]);
    expect(h.limiter.stats().requests.reads - before).toBe(3);
  });

  it('500s are retried with backoff; when they outlast the retries the error is transient, with the attempts counted exactly', async () => {
    const h = await withProfile({ retry: { maxRetries: 2 } });
    h.emulator.admin.injectFault({ kind: 'status', status: 500, method: 'GET', pathPattern: '/profiles/p1$', count: 5 });
    const error = await getProfile(h).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE })).toBe(3);
    expect(classifyArmError(error)).toMatchObject({ class: 'transient', category: 'server', status: 500, code: 'InternalServerError' });
  });

  it('a dropped connection is retried', async () => {
    const h = await withProfile();
    h.emulator.admin.injectFault({ kind: 'reset', method: 'GET', pathPattern: '/profiles/p1$', count: 1 });
    await expect(getProfile(h)).resolves.toMatchObject({ name: 'p1' });
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE })).toBe(2);
  });

  it('an attempt ARM never answers is cut at the request timeout and retried', async () => {
    const h = await withProfile({ retry: { requestTimeoutMs: 300 } });
    h.emulator.admin.injectFault({ kind: 'hang', method: 'GET', pathPattern: '/profiles/p1$', count: 1 });
    await expect(getProfile(h)).resolves.toMatchObject({ name: 'p1' });
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE, status: 0 })).toBe(1);
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE })).toBe(2);
  });

  it('attempts that all hang end, after the retries, in a transient network failure naming the timeout', async () => {
    const h = await withProfile({ retry: { requestTimeoutMs: 200, maxRetries: 2 } });
    h.emulator.admin.injectFault({ kind: 'hang', method: 'GET', pathPattern: '/profiles/p1$', count: 5 });
    const error = await getProfile(h).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE, status: 0 })).toBe(3);
    expect(classifyArmError(error)).toMatchObject({
      class: 'transient',
      category: 'network',
      code: 'ETIMEDOUT',
      cause: expect.stringContaining('within 0.2 s'),
    });
  });

  it("the caller's abort during a hung attempt is not retried", async () => {
    const h = await withProfile({ retry: { requestTimeoutMs: 60_000 } });
    h.emulator.admin.injectFault({ kind: 'hang', method: 'GET', pathPattern: '/profiles/p1$', count: 5 });
    const abort = new AbortController();
    const pending = h.clients.cdn.profiles.get(TEST_SCOPE.resourceGroup, 'p1', { abortSignal: abort.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await expect.poll(() => h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE, status: 0 })).toBe(1);
    abort.abort();
    expect((await pending) as Error).toMatchObject({ name: 'AbortError' });
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE })).toBe(1);
  });

  it('a Retry-After beyond the cap is cut to it and reported', async () => {
    const waits: number[] = [];
    const capped: RetryAfterCapped[] = [];
    const h = await withProfile({ retry: { sleep: async (ms) => void waits.push(ms), maxRetryAfterMs: 1_000, onRetryAfterCapped: (c) => capped.push(c) } });
    h.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'GET', pathPattern: '/profiles/p1$', count: 2, retryAfterSeconds: 600 });
    await expect(getProfile(h)).resolves.toMatchObject({ name: 'p1' });
    expect(waits).toEqual([1_000, 1_000]);
    expect(capped).toHaveLength(2);
    expect(capped[0]).toMatchObject({ method: 'GET', status: 429, retryAfterMs: 600_000, waitedMs: 1_000 });
    expect(capped[0]?.url).toContain('/profiles/p1');
  });

  it("a long-running operation's Retry-After beyond the cap is cut to it too: the poller waits the cap, not ARM's hour", async () => {
    const capped: RetryAfterCapped[] = [];
    harness = await startHarness({
      emulator: { lroDelayMs: 50, lroRetryAfterSeconds: 3_600 },
      retry: { maxRetryAfterMs: 1_000, onRetryAfterCapped: (c) => capped.push(c) },
    });
    const body = { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } };
    await expect(harness.clients.cdn.profiles.beginCreateAndWait(TEST_SCOPE.resourceGroup, 'p2', body)).resolves.toMatchObject({
      provisioningState: 'Succeeded',
    });
    expect(capped.length).toBeGreaterThanOrEqual(1);
    expect(capped[0]).toMatchObject({ method: 'PUT', retryAfterMs: 3_600_000, waitedMs: 1_000 });
  });

  it('the write fence stops every write attempt, a resend after Retry-After included; reads pass', async () => {
    let fenced: string | undefined;
    const h = await withProfile({
      writeFence: () => fenced,
      // The fence turns while the retry policy waits out ARM's Retry-After (the process paused, the Lease lost).
      retry: { sleep: async () => void (fenced = "this replica's leader Lease is not valid") },
    });
    h.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'PUT', pathPattern: '/profiles/p1$', count: 1, retryAfterSeconds: 5 });
    const body = { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, tags: { a: 'b' } };
    const error = await h.clients.cdn.profiles.beginCreateAndWait(TEST_SCOPE.resourceGroup, 'p1', body, { updateIntervalInMs: 5 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ArmWriteFencedError);
    expect((error as Error).message).toBe(
      `PUT /subscriptions/${TEST_SCOPE.subscriptionId}/resourceGroups/${TEST_SCOPE.resourceGroup}/providers/Microsoft.Cdn/profiles/p1 was not sent: this replica's leader Lease is not valid`,
    );
    expect(h.emulator.admin.requestTotal({ method: 'PUT' })).toBe(1);
    await expect(getProfile(h)).resolves.toMatchObject({ name: 'p1', tags: {} });
  });

  it('authorization failures are terminal and never retried', async () => {
    const h = await withProfile();
    h.emulator.admin.injectFault({ kind: 'status', status: 403, method: 'GET', pathPattern: '/profiles/p1$', count: 3 });
    const error = await getProfile(h).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(h.emulator.admin.requestTotal({ method: 'GET', resourceType: PROFILE })).toBe(1);
    expect(classifyArmError(error)).toEqual({
      class: 'terminal',
      category: 'authorization',
      status: 403,
      code: 'AuthorizationFailed',
      cause: 'The client does not have authorization to perform this action (injected fault).',
    });
  });

  it('the limiter makes callers wait once the burst is spent, and long-running-operation polls take tokens too', async () => {
    let now = 0;
    const waits: number[] = [];
    harness = await startHarness({
      limiter: {
        now: () => now,
        sleep: async (ms) => void (waits.push(ms), (now += ms)),
        reads: { burst: 2, refillPerSecond: 1 },
        writes: { burst: 5, refillPerSecond: 1 },
      },
    });
    const h = harness;
    for (let i = 0; i < 3; i++) await getProfile(h).catch(() => undefined);
    expect(waits).toEqual([1000]);
    await h.clients.cdn.profiles.beginCreateAndWait(
      TEST_SCOPE.resourceGroup,
      'p1',
      { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } },
      { updateIntervalInMs: 5 },
    );
    const gets = h.emulator.admin.requestTotal({ method: 'GET' });
    expect(gets).toBeGreaterThan(3);
    expect(h.limiter.stats().requests).toEqual({ reads: gets, writes: 1 });
  });
});

describe("the clients' pipelines", () => {
  it('hold one retry policy, ours, with the shared limiter after it (each attempt takes a token)', async () => {
    harness = await startHarness();
    const names = harness.clients.cdn.pipeline.getOrderedPolicies().map((p) => p.name);
    expect(names.filter((n) => /retry/i.test(n))).toEqual(['fleetGatewayArmRetry']);
    expect(names.indexOf('fleetGatewayArmRateLimit')).toBeGreaterThan(names.indexOf('fleetGatewayArmRetry'));
  });
});

describe('retryAfterMs', () => {
  const response = (headers: Record<string, string>) =>
    ({ headers: { get: (name: string) => headers[name] } }) as unknown as Parameters<typeof retryAfterMs>[0];

  it('reads milliseconds headers first, then seconds or an HTTP date', () => {
    expect(retryAfterMs(response({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(response({ 'x-ms-retry-after-ms': '40' }))).toBe(40);
    expect(retryAfterMs(response({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(response({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(response({}))).toBeUndefined();
  });
});
