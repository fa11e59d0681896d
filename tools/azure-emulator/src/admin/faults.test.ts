import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawArmClient } from '../raw-arm-client.js';
import { restErrorOf } from '../testing/errors.js';
import { FAST_POLLING, RESOURCE_GROUP, startTestBed, type TestBed } from '../testing/sdk.js';
import { FaultInjector } from './faults.js';

let bed: TestBed;
let raw: RawArmClient;
const SUB = '11111111-2222-3333-4444-555555555555';
const PROFILES = `/subscriptions/${SUB}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Cdn/profiles`;

beforeAll(async () => {
  bed = await startTestBed();
  raw = new RawArmClient(bed.emulator.armEndpoint, bed.emulator.caCertificate);
  await bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING);
});
afterAll(async () => {
  raw.close();
  await bed.emulator.stop();
});

describe('fault injection', () => {
  it.each([400, 403, 409, 429, 500, 503] as const)('fails the next matching request with %i and an ARM error body', async (status) => {
    bed.emulator.admin.injectFault({ kind: 'status', method: 'GET', pathPattern: '/profiles/fd$', status });
    const error = await restErrorOf(bed.cdn.profiles.get(RESOURCE_GROUP, 'fd'));
    expect(error.statusCode).toBe(status);
    expect(typeof error.code).toBe('string');
    if (status === 429 || status === 503) expect(error.response?.headers.get('retry-after')).toBe('1');
    expect((await bed.cdn.profiles.get(RESOURCE_GROUP, 'fd')).name).toBe('fd');
  });

  it('applies to exactly `count` matching requests and leaves others alone', async () => {
    bed.emulator.admin.injectFault({ kind: 'status', method: 'PUT', pathPattern: '/afdEndpoints/', status: 500, count: 2, code: 'Boom', message: 'nope' });
    expect((await bed.cdn.profiles.get(RESOURCE_GROUP, 'fd')).name).toBe('fd');
    const body = { location: 'global' };
    const first = await raw.send('PUT', `${PROFILES}/fd/afdEndpoints/e?api-version=2024-02-01`, body);
    const second = await raw.send('PUT', `${PROFILES}/fd/afdEndpoints/e?api-version=2024-02-01`, body);
    const third = await raw.send('PUT', `${PROFILES}/fd/afdEndpoints/e?api-version=2024-02-01`, body);
    expect([first.status, second.status, third.status]).toEqual([500, 500, 201]);
    expect(first.body).toEqual({ error: { code: 'Boom', message: 'nope' } });
    expect(bed.emulator.admin.listFaults()).toEqual([]);
  });

  it('adds latency and then answers normally', async () => {
    bed.emulator.admin.injectFault({ kind: 'latency', method: 'GET', latencyMs: 120 });
    const started = performance.now();
    expect((await raw.send('GET', `${PROFILES}/fd?api-version=2024-02-01`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('resets the connection', async () => {
    bed.emulator.admin.injectFault({ kind: 'reset', method: 'GET', pathPattern: '/profiles/fd$' });
    const error = await restErrorOf(bed.cdn.profiles.get(RESOURCE_GROUP, 'fd'));
    expect(error.code).toMatch(/ECONNRESET|REQUEST_SEND_ERROR/);
    expect(bed.emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 0 })).toBe(1);
  });

  it('hangs: counted on arrival, no answer until the client gives up, then the next request is served', async () => {
    bed.emulator.admin.resetCounters();
    bed.emulator.admin.injectFault({ kind: 'hang', method: 'GET', pathPattern: '/profiles/fd$' });
    const abort = new AbortController();
    const hung = bed.cdn.profiles.get(RESOURCE_GROUP, 'fd', { abortSignal: abort.signal }).then(
      () => 'answered',
      () => 'gave up',
    );
    await expect.poll(() => bed.emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 0 })).toBe(1);
    const outcome = await Promise.race([hung, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300))]);
    expect(outcome).toBe('still waiting');
    abort.abort();
    expect(await hung).toBe('gave up');
    expect((await bed.cdn.profiles.get(RESOURCE_GROUP, 'fd')).name).toBe('fd');
    expect(bed.emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Cdn/profiles' })).toBe(2);
  });

  it('ends the next matching long-running operation Failed, which the SDK reports', async () => {
    bed.emulator.admin.injectFault({
      kind: 'lro-failure',
      method: 'PUT',
      pathPattern: '/originGroups/og-fail$',
      code: 'OriginGroupFailed',
      message: 'injected',
    });
    const error = await restErrorOf(bed.cdn.afdOriginGroups.beginCreateAndWait(RESOURCE_GROUP, 'fd', 'og-fail', {}, FAST_POLLING));
    expect(String(error.message)).toContain('OriginGroupFailed');
    expect((await bed.cdn.afdOriginGroups.get(RESOURCE_GROUP, 'fd', 'og-fail')).provisioningState).toBe('Failed');
    // The next PUT is not affected and repairs the resource.
    expect((await bed.cdn.afdOriginGroups.beginCreateAndWait(RESOURCE_GROUP, 'fd', 'og-fail', {}, FAST_POLLING)).provisioningState).toBe('Succeeded');
  });

  it('counts requests by method, resource type and status', async () => {
    bed.emulator.admin.resetCounters();
    await bed.cdn.profiles.get(RESOURCE_GROUP, 'fd');
    await restErrorOf(bed.cdn.profiles.get(RESOURCE_GROUP, 'missing'));
    expect(bed.emulator.admin.requestCounts()).toEqual(
      expect.arrayContaining([
        { method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 200, count: 1 },
        { method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 404, count: 1 },
      ]),
    );
  });
});

describe('FaultInjector validation', () => {
  it('rejects bad specs naming the field', () => {
    const faults = new FaultInjector();
    expect(() => faults.add({ kind: 'status', status: 418 as never })).toThrow(/'status' must be one of 400, 403, 409, 429, 500, 503/);
    expect(() => faults.add({ kind: 'explode' as never })).toThrow(/'kind' must be one of/);
    expect(() => faults.add({ kind: 'latency' })).toThrow(/'latencyMs'/);
    expect(() => faults.add({ kind: 'reset', pathPattern: '(' })).toThrow(/'pathPattern'/);
    expect(() => faults.add({ kind: 'reset', count: 0 })).toThrow(/'count'/);
    expect(faults.list()).toEqual([]);
  });
});
