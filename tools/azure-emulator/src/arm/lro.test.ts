import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawArmClient } from '../raw-arm-client.js';
import { start, type RunningEmulator } from '../emulator.js';

const SUB = '00000000-0000-0000-0000-00000000aaaa';
const PROFILE = `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Cdn/profiles`;
const Q = '?api-version=2024-02-01';

let emulator: RunningEmulator;
let client: RawArmClient;
beforeAll(async () => {
  emulator = await start({ lroDelayMs: 60, throttling: false, lroRetryAfterSeconds: 1, deployment: { notStartedMs: 30, inProgressMs: 60 } });
  client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
});
afterAll(async () => {
  client.close();
  await emulator.stop();
});

async function waitForOperation(url: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const status = (await client.send('GET', url)).body as Record<string, unknown>;
    if (status.status !== 'InProgress') return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('operation did not finish');
}

describe('long-running operations', () => {
  it('PUT answers 201 Creating with Azure-AsyncOperation and Location, then Succeeds', async () => {
    const put = await client.send('PUT', `${PROFILE}/lro1${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
    expect(put.status).toBe(201);
    expect((put.body as { properties: { provisioningState: string } }).properties.provisioningState).toBe('Creating');
    expect(put.headers['retry-after']).toBe('1');
    const asyncUrl = String(put.headers['azure-asyncoperation']);
    const locationUrl = String(put.headers.location);
    expect(asyncUrl).toMatch(/\/operationStatuses\/[0-9a-f-]+\?api-version=2024-02-01$/);
    expect((await client.send('GET', locationUrl)).status).toBe(202);
    expect((await client.send('GET', asyncUrl)).body).toMatchObject({ status: 'InProgress' });
    expect(await waitForOperation(asyncUrl)).toMatchObject({ status: 'Succeeded' });
    const result = await client.send('GET', locationUrl);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: 'lro1', properties: { provisioningState: 'Succeeded' } });
  });

  it('refuses a second write while an operation runs (409 AnotherOperationInProgress)', async () => {
    await client.send('PUT', `${PROFILE}/busy${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
    const second = await client.send('PATCH', `${PROFILE}/busy${Q}`, { tags: { a: 'b' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: { code: 'AnotherOperationInProgress' } });
  });

  it('ends Failed on an injected LRO failure and leaves the resource Failed', async () => {
    emulator.admin.injectFault({ kind: 'lro-failure', method: 'PUT', pathPattern: '/profiles/doomed$', code: 'OriginUnreachable', message: 'boom' });
    const put = await client.send('PUT', `${PROFILE}/doomed${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
    expect(await waitForOperation(String(put.headers['azure-asyncoperation']))).toMatchObject({ status: 'Failed', error: { code: 'OriginUnreachable', message: 'boom' } });
    expect(((await client.send('GET', `${PROFILE}/doomed${Q}`)).body as { properties: { provisioningState: string } }).properties.provisioningState).toBe('Failed');
  });

  it('DELETE answers 202 Deleting, the resource is gone afterwards, a repeated DELETE is 204', async () => {
    const put = await client.send('PUT', `${PROFILE}/gone${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
    await waitForOperation(String(put.headers['azure-asyncoperation']));
    const deletion = await client.send('DELETE', `${PROFILE}/gone${Q}`);
    expect(deletion.status).toBe(202);
    expect(((await client.send('GET', `${PROFILE}/gone${Q}`)).body as { properties: { provisioningState: string } }).properties.provisioningState).toBe('Deleting');
    await waitForOperation(String(deletion.headers['azure-asyncoperation']));
    expect((await client.send('GET', String(deletion.headers.location))).status).toBe(204);
    expect((await client.send('GET', `${PROFILE}/gone${Q}`)).status).toBe(404);
    expect((await client.send('DELETE', `${PROFILE}/gone${Q}`)).status).toBe(204);
  });
});

describe('endpoint deploymentStatus', () => {
  it('progresses NotStarted -> InProgress -> Succeeded', async () => {
    const put = await client.send('PUT', `${PROFILE}/deploy${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
    await waitForOperation(String(put.headers['azure-asyncoperation']));
    const endpoint = `${PROFILE}/deploy/afdEndpoints/e${Q}`;
    const created = await client.send('PUT', endpoint, { location: 'global' });
    const seen = new Set<string>([(created.body as { properties: { deploymentStatus: string } }).properties.deploymentStatus]);
    for (let attempt = 0; attempt < 200 && !seen.has('Succeeded'); attempt++) {
      seen.add(((await client.send('GET', endpoint)).body as { properties: { deploymentStatus: string } }).properties.deploymentStatus);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect([...seen]).toEqual(['NotStarted', 'InProgress', 'Succeeded']);
  });

  it('stays NotStarted for ever in stuck mode while provisioning succeeds', async () => {
    // Timings that would reach Succeeded within 2 ms in progress mode.
    const stuck = await start({ lroDelayMs: 0, throttling: false, deployment: { mode: 'stuck', notStartedMs: 1, inProgressMs: 1 } });
    const stuckClient = new RawArmClient(stuck.armEndpoint, stuck.caCertificate);
    try {
      await stuckClient.send('PUT', `${PROFILE}/p${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
      await stuckClient.send('PUT', `${PROFILE}/p/afdEndpoints/e${Q}`, { location: 'global' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const endpoint = (await stuckClient.send('GET', `${PROFILE}/p/afdEndpoints/e${Q}`)).body as { properties: Record<string, string> };
      expect(endpoint.properties.provisioningState).toBe('Succeeded');
      expect(endpoint.properties.deploymentStatus).toBe('NotStarted');
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

  it('answers InvalidRequestContent for malformed JSON', async () => {
    const { request } = await import('node:https');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(new URL(`${PROFILE}/x${Q}`, emulator.armEndpoint), { method: 'PUT', ca: emulator.caCertificate, headers: { authorization: 'Bearer t' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{not json');
    });
    expect(status).toBe(400);
  });
});
