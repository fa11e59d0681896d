import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawArmClient, type RawResponse } from '../raw-arm-client.js';
import { AFD } from '../cdn/afd-common.js';
import { start, type RunningEmulator } from '../emulator.js';
import { OperationTracker } from './lro.js';
import { AZURE_OPERATION_DURATIONS, type DurationBounds } from '../operation-timings.js';
import { resolveOptions } from '../options.js';

const SUB = '00000000-0000-0000-0000-00000000aaaa';
const PROFILE = `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Cdn/profiles`;
const Q = '?api-version=2024-02-01';
const STANDARD = { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } };

let emulator: RunningEmulator;
let client: RawArmClient;
let now = 1_700_000_000_000;
beforeAll(async () => {
  // Operations run for an hour unless the test ends them with admin.finishOperations(): every in-progress state is
  // observable however slow the machine is. deploymentStatus follows the test's clock.
  emulator = await start({
    lroDelayMs: 3_600_000,
    throttling: false,
    clock: () => now,
    deployment: { notStartedMs: 30_000, inProgressMs: 60_000 },
  });
  client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  emulator.admin.createResourceGroup({ subscriptionId: SUB, name: 'rg' });
});
afterAll(async () => {
  client.close();
  await emulator.stop();
});

function propertiesOf(response: RawResponse): Record<string, string> {
  return (response.body as { properties: Record<string, string> }).properties;
}

async function finished(put: RawResponse): Promise<void> {
  expect(emulator.admin.finishOperations()).toBeGreaterThan(0);
  expect((await client.send('GET', String(put.headers['azure-asyncoperation']))).body).toMatchObject({ status: 'Succeeded' });
}

describe('long-running operations', () => {
  it('PUT answers 201 Creating with Azure-AsyncOperation and Location, then Succeeds', async () => {
    const put = await client.send('PUT', `${PROFILE}/lro1${Q}`, STANDARD);
    expect(put.status).toBe(201);
    expect(propertiesOf(put).provisioningState).toBe('Creating');
    expect(put.headers['retry-after']).toBe('1');
    const asyncUrl = String(put.headers['azure-asyncoperation']);
    const locationUrl = String(put.headers.location);
    expect(asyncUrl).toMatch(/\/operationStatuses\/[0-9a-f-]+\?api-version=2024-02-01$/);
    expect((await client.send('GET', locationUrl)).status).toBe(202);
    expect((await client.send('GET', asyncUrl)).body).toMatchObject({ status: 'InProgress' });
    expect(propertiesOf(await client.send('GET', `${PROFILE}/lro1${Q}`)).provisioningState).toBe('Creating');
    await finished(put);
    const result = await client.send('GET', locationUrl);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: 'lro1', properties: { provisioningState: 'Succeeded' } });
  });

  it('PATCH answers 202 Updating with the operation headers while it runs (the spec allows 200/202); an update by PUT answers 200', async () => {
    const patch = await client.send('PATCH', `${PROFILE}/lro1${Q}`, { tags: { team: 'edge' } });
    expect(patch.status).toBe(202);
    expect(patch.headers['retry-after']).toBe('1');
    expect(propertiesOf(patch).provisioningState).toBe('Updating');
    expect(patch.headers['azure-asyncoperation']).toMatch(/operationStatuses/);
    await finished(patch);
    const put = await client.send('PUT', `${PROFILE}/lro1${Q}`, STANDARD);
    expect([put.status, propertiesOf(put).provisioningState]).toEqual([200, 'Updating']);
    await finished(put);
  });

  it('refuses a second write while an operation runs (409 AnotherOperationInProgress)', async () => {
    const put = await client.send('PUT', `${PROFILE}/busy${Q}`, STANDARD);
    const second = await client.send('PATCH', `${PROFILE}/busy${Q}`, { tags: { a: 'b' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: { code: 'AnotherOperationInProgress' } });
    await finished(put);
    expect((await client.send('PATCH', `${PROFILE}/busy${Q}`, { tags: { a: 'b' } })).status).toBe(202);
    emulator.admin.finishOperations();
  });

  it('ends Failed on an injected LRO failure and leaves the resource Failed', async () => {
    emulator.admin.injectFault({ kind: 'lro-failure', method: 'PUT', pathPattern: '/profiles/doomed$', code: 'OriginUnreachable', message: 'boom' });
    const put = await client.send('PUT', `${PROFILE}/doomed${Q}`, STANDARD);
    expect(emulator.admin.finishOperations()).toBe(1);
    expect((await client.send('GET', String(put.headers['azure-asyncoperation']))).body).toMatchObject({
      status: 'Failed',
      error: { code: 'OriginUnreachable', message: 'boom' },
    });
    expect((await client.send('GET', String(put.headers.location))).status).toBe(500);
    expect(propertiesOf(await client.send('GET', `${PROFILE}/doomed${Q}`)).provisioningState).toBe('Failed');
  });

  it('DELETE answers 202 Deleting, the resource is gone afterwards, a repeated DELETE is 204', async () => {
    await finished(await client.send('PUT', `${PROFILE}/gone${Q}`, STANDARD));
    const deletion = await client.send('DELETE', `${PROFILE}/gone${Q}`);
    expect(deletion.status).toBe(202);
    expect(propertiesOf(await client.send('GET', `${PROFILE}/gone${Q}`)).provisioningState).toBe('Deleting');
    expect((await client.send('DELETE', `${PROFILE}/gone${Q}`)).headers['azure-asyncoperation']).toBe(deletion.headers['azure-asyncoperation']);
    await finished(deletion);
    expect((await client.send('GET', String(deletion.headers.location))).status).toBe(204);
    expect((await client.send('GET', `${PROFILE}/gone${Q}`)).status).toBe(404);
    expect((await client.send('DELETE', `${PROFILE}/gone${Q}`)).status).toBe(204);
  });

  it('deleting a parent removes its children', async () => {
    await finished(await client.send('PUT', `${PROFILE}/parent${Q}`, STANDARD));
    await finished(await client.send('PUT', `${PROFILE}/parent/originGroups/og${Q}`, {}));
    await finished(await client.send('DELETE', `${PROFILE}/parent${Q}`));
    expect((await client.send('GET', `${PROFILE}/parent/originGroups/og${Q}`)).body).toMatchObject({ error: { code: 'ParentResourceNotFound' } });
  });
});

describe('OperationTracker', () => {
  it('ends an operation once, Succeeded or Failed as asked; a canceled one never completes', () => {
    const tracker = new OperationTracker('timer');
    const outcomes: string[] = [];
    const base = {
      subscriptionId: 's',
      provider: 'Microsoft.Cdn',
      location: 'global',
      apiVersion: 'v',
      method: 'PUT' as const,
      resourceKey: 'r',
      durationMs: 3_600_000,
    };
    const ok = tracker.start({ ...base, complete: (outcome) => outcomes.push(`ok:${outcome}`) });
    const failing = tracker.start({ ...base, failWith: { code: 'X', message: 'y' }, complete: (outcome) => outcomes.push(`failing:${outcome}`) });
    const canceled = tracker.start({ ...base, complete: (outcome) => outcomes.push(`canceled:${outcome}`) });
    tracker.cancel(canceled.id);
    expect([tracker.isRunning(ok.id), tracker.isRunning(canceled.id)]).toEqual([true, false]);
    expect(tracker.finishAll()).toBe(2);
    expect(tracker.finishAll()).toBe(0);
    expect(outcomes).toEqual(['ok:Succeeded', 'failing:Failed']);
    expect([ok.status, failing.status, failing.error?.code, canceled.status]).toEqual(['Succeeded', 'Failed', 'X', 'Canceled']);
  });
});

describe('endpoint deploymentStatus', () => {
  it('stays NotStarted while provisioning runs and after it succeeded, then InProgress, then Succeeded; the clock starts when provisioning ends', async () => {
    await finished(await client.send('PUT', `${PROFILE}/deploy${Q}`, STANDARD));
    const endpoint = `${PROFILE}/deploy/afdEndpoints/e${Q}`;
    const created = await client.send('PUT', endpoint, { location: 'global' });
    const status = async (): Promise<string | undefined> => propertiesOf(await client.send('GET', endpoint)).deploymentStatus;
    // The operation runs for ten minutes of the test's clock: the status has not started counting.
    now += 600_000;
    const seen = [propertiesOf(created).deploymentStatus, await status()];
    await finished(created);
    seen.push(await status());
    now += 29_999;
    seen.push(await status());
    now += 1;
    seen.push(await status());
    now += 60_000;
    seen.push(await status());
    expect(seen).toEqual(['NotStarted', 'NotStarted', 'NotStarted', 'NotStarted', 'InProgress', 'Succeeded']);
    const patch = await client.send('PATCH', endpoint, { properties: { enabledState: 'Disabled' } });
    now += 600_000;
    expect(await status()).toBe('NotStarted');
    await finished(patch);
    expect(await status()).toBe('NotStarted');
  });

  it('defaults to minutes after provisioning succeeds (profile azure); make local-up watches a shorter profile, and fast tests a shorter one still', () => {
    expect(resolveOptions().deployment).toEqual({ mode: 'progress', notStartedMs: 120_000, inProgressMs: 600_000 });
    expect(resolveOptions({ deployment: 'watchable' }).deployment).toEqual({ mode: 'progress', notStartedMs: 10_000, inProgressMs: 30_000 });
    expect(resolveOptions({ deployment: 'fast' }).deployment).toEqual({ mode: 'progress', notStartedMs: 50, inProgressMs: 200 });
    expect(resolveOptions({ deployment: { inProgressMs: 5 } }).deployment).toEqual({ mode: 'progress', notStartedMs: 120_000, inProgressMs: 5 });
  });

  it('stays NotStarted for ever in stuck mode while provisioning succeeds', async () => {
    let stuckNow = 0;
    const stuck = await start({ lroDelayMs: 0, throttling: false, clock: () => stuckNow, deployment: { mode: 'stuck', notStartedMs: 1, inProgressMs: 1 } });
    const stuckClient = new RawArmClient(stuck.armEndpoint, stuck.caCertificate);
    stuck.admin.createResourceGroup({ subscriptionId: SUB, name: 'rg' });
    try {
      // An operation that ends inside the request answers without Retry-After; one still running carries ARM's.
      expect((await stuckClient.send('PUT', `${PROFILE}/p${Q}`, STANDARD)).headers['retry-after']).toBeUndefined();
      await stuckClient.send('PUT', `${PROFILE}/p/afdEndpoints/e${Q}`, { location: 'global' });
      stuckNow += 365 * 24 * 3600 * 1000;
      const endpoint = propertiesOf(await stuckClient.send('GET', `${PROFILE}/p/afdEndpoints/e${Q}`));
      expect(endpoint.provisioningState).toBe('Succeeded');
      expect(endpoint.deploymentStatus).toBe('NotStarted');
    } finally {
      stuckClient.close();
      await stuck.stop();
    }
  });
});

describe('ARM request validation', () => {
  it('requires a Bearer token and an api-version, and names the supported api-version', async () => {
    expect((await client.send('GET', `${PROFILE}${Q}`, undefined, { authorization: '' })).status).toBe(401);
    expect((await client.send('GET', PROFILE)).body).toMatchObject({ error: { code: 'MissingApiVersionParameter' } });
    const wrong = await client.send('GET', `${PROFILE}?api-version=2020-09-01`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: { code: 'NoRegisteredProviderFound' } });
  });

  it('serves Microsoft.Network at the vendored 2025-05-01 and at 2026-01-01, which @azure/arm-network 39 sends', async () => {
    const loadBalancers = `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Network/loadBalancers`;
    for (const version of ['2025-05-01', '2026-01-01']) {
      expect((await client.send('GET', `${loadBalancers}?api-version=${version}`)).status).toBe(200);
    }
    const put = await client.send('PUT', `${loadBalancers}/lb-versions?api-version=2026-01-01`, { location: 'eastus' });
    expect(put.status).toBe(201);
    // The operation URLs carry the api-version of the request that started the operation, as ARM's do.
    expect(put.headers['azure-asyncoperation']).toMatch(/\?api-version=2026-01-01$/);
    const wrong = await client.send('GET', `${loadBalancers}?api-version=2024-02-01`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      error: { code: 'NoRegisteredProviderFound', message: expect.stringContaining("The supported api-versions are '2025-05-01, 2026-01-01'") },
    });
  });

  it('answers InvalidRequestContent for malformed JSON', async () => {
    const { request } = await import('node:https');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        new URL(`${PROFILE}/x${Q}`, emulator.armEndpoint),
        { method: 'PUT', ca: emulator.caCertificate, headers: { authorization: 'Bearer t' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{not json');
    });
    expect(status).toBe(400);
  });
});

describe('operationTimings: azure', () => {
  let azure: RunningEmulator;
  let azureClient: RawArmClient;
  // Operations under the azure timings end when this clock passes their duration, not in real time.
  let azureNow = 1_700_000_000_000;
  const profileCreate = AZURE_OPERATION_DURATIONS.find((entry) => entry.kindKey === AFD.profile)?.create as DurationBounds;
  beforeAll(async () => {
    azure = await start({ operationTimings: 'azure', operationTimingSeed: 3, throttling: false, clock: () => azureNow });
    azureClient = new RawArmClient(azure.armEndpoint, azure.caCertificate);
    azure.admin.createResourceGroup({ subscriptionId: SUB, name: 'rg' });
  });
  afterAll(async () => {
    azureClient.close();
    await azure.stop();
  });

  it('keeps a profile create InProgress until the clock passes its duration; Retry-After 10 on the 201, none on polls', async () => {
    const put = await azureClient.send('PUT', `${PROFILE}/slow${Q}`, STANDARD);
    expect([put.status, put.headers['retry-after'], propertiesOf(put).provisioningState]).toEqual([201, '10', 'Creating']);
    const status = (): Promise<RawResponse> => azureClient.send('GET', String(put.headers['azure-asyncoperation']));

    const polled = await status();
    expect([polled.body, polled.headers['retry-after']]).toEqual([expect.objectContaining({ status: 'InProgress' }), undefined]);
    const result = await azureClient.send('GET', String(put.headers.location));
    expect([result.status, result.headers['retry-after']]).toEqual([202, undefined]);

    azureNow += profileCreate.minMs - 1;
    expect((await status()).body).toMatchObject({ status: 'InProgress' });
    expect(propertiesOf(await azureClient.send('GET', `${PROFILE}/slow${Q}`)).provisioningState).toBe('Creating');

    azureNow += profileCreate.maxMs - profileCreate.minMs + 1;
    // The resource read settles the operation the clock ended: it reads Succeeded before its status is polled.
    expect(propertiesOf(await azureClient.send('GET', `${PROFILE}/slow${Q}`)).provisioningState).toBe('Succeeded');
    const ended = await status();
    expect([ended.body, ended.headers['retry-after']]).toEqual([expect.objectContaining({ status: 'Succeeded' }), undefined]);
  });

  it('answers an origin group create Succeeded within the request, as Front Door does, without operation URLs or Retry-After', async () => {
    const put = await azureClient.send('PUT', `${PROFILE}/slow/originGroups/og${Q}`, {});
    expect([put.status, propertiesOf(put).provisioningState]).toEqual([201, 'Succeeded']);
    expect([put.headers['azure-asyncoperation'], put.headers.location, put.headers['retry-after']]).toEqual([undefined, undefined, undefined]);
  });

  it('answers a profile delete 202 with Retry-After 10; admin.finishOperations() still ends operations at once', async () => {
    const deletion = await azureClient.send('DELETE', `${PROFILE}/slow${Q}`);
    expect([deletion.status, deletion.headers['retry-after']]).toEqual([202, '10']);
    expect(azure.admin.finishOperations()).toBe(1);
    expect((await azureClient.send('GET', String(deletion.headers['azure-asyncoperation']))).body).toMatchObject({ status: 'Succeeded' });
    expect((await azureClient.send('GET', `${PROFILE}/slow${Q}`)).status).toBe(404);
  });
});
