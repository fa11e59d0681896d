import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFD } from '../cdn/afd-common.js';
import { start, type RunningEmulator } from '../emulator.js';
import { AZURE_OPERATION_DURATIONS } from '../operation-timings.js';
import { RawArmClient, type RawResponse } from '../raw-arm-client.js';

const SUB = '00000000-0000-0000-0000-00000000a2ee';
const PROFILES = `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Cdn/profiles`;
const Q = '?api-version=2024-02-01';
const STANDARD = { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } };

let emulator: RunningEmulator;
let client: RawArmClient;
// The test's clock: operations under the azure timings end when it passes their duration, not in real time.
let now = 1_700_000_000_000;
beforeAll(async () => {
  emulator = await start({ operationTimings: 'azure', operationTimingSeed: 3, throttling: false, clock: () => now });
  client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  emulator.admin.createResourceGroup({ subscriptionId: SUB, name: 'rg' });
});
afterAll(async () => {
  client.close();
  await emulator.stop();
});

const profileCreate = AZURE_OPERATION_DURATIONS.find((entry) => entry.kindKey === AFD.profile)?.create as { minMs: number; maxMs: number };

function provisioningStateOf(response: RawResponse): unknown {
  return (response.body as { properties: { provisioningState?: string } }).properties.provisioningState;
}

describe('operationTimings: azure', () => {
  it('keeps a profile create InProgress until the clock passes its duration; Retry-After 10 on the 201, none on polls', async () => {
    const put = await client.send('PUT', `${PROFILES}/slow${Q}`, STANDARD);
    expect([put.status, put.headers['retry-after'], provisioningStateOf(put)]).toEqual([201, '10', 'Creating']);
    const status = (): Promise<RawResponse> => client.send('GET', String(put.headers['azure-asyncoperation']));

    const polled = await status();
    expect([polled.body, polled.headers['retry-after']]).toEqual([expect.objectContaining({ status: 'InProgress' }), undefined]);
    const result = await client.send('GET', String(put.headers.location));
    expect([result.status, result.headers['retry-after']]).toEqual([202, undefined]);

    now += profileCreate.minMs - 1;
    expect((await status()).body).toMatchObject({ status: 'InProgress' });
    expect(provisioningStateOf(await client.send('GET', `${PROFILES}/slow${Q}`))).toBe('Creating');

    now += profileCreate.maxMs - profileCreate.minMs + 1;
    // The resource read settles the operation the clock ended: it reads Succeeded before its status is polled.
    expect(provisioningStateOf(await client.send('GET', `${PROFILES}/slow${Q}`))).toBe('Succeeded');
    const ended = await status();
    expect([ended.body, ended.headers['retry-after']]).toEqual([expect.objectContaining({ status: 'Succeeded' }), undefined]);
  });

  it('answers an origin group create Succeeded within the request, as Front Door does, without Retry-After', async () => {
    const put = await client.send('PUT', `${PROFILES}/slow/originGroups/og${Q}`, {});
    expect([put.status, put.headers['retry-after'], provisioningStateOf(put)]).toEqual([201, undefined, 'Succeeded']);
  });

  it('answers a profile delete 202 with Retry-After 10; admin.finishOperations() still ends operations at once', async () => {
    const deletion = await client.send('DELETE', `${PROFILES}/slow${Q}`);
    expect([deletion.status, deletion.headers['retry-after']]).toEqual([202, '10']);
    expect(emulator.admin.finishOperations()).toBe(1);
    expect((await client.send('GET', String(deletion.headers['azure-asyncoperation']))).body).toMatchObject({ status: 'Succeeded' });
    expect((await client.send('GET', `${PROFILES}/slow${Q}`)).status).toBe(404);
  });
});
