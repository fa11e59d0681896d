import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';
import { RawArmClient } from '../raw-arm-client.js';
import { EmulatorAdminClient } from './admin-client.js';

let emulator: RunningEmulator;
let raw: RawArmClient;
let admin: EmulatorAdminClient;
const SUB = '11111111-2222-3333-4444-555555555555';
const PROFILE = `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.Cdn/profiles/fd`;

beforeAll(async () => {
  emulator = await start({ lroDelayMs: 0, throttling: false });
  raw = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  admin = new EmulatorAdminClient(emulator.admin.url);
});
afterAll(async () => {
  raw.close();
  await emulator.stop();
});

describe('EmulatorAdminClient', () => {
  it('creates a resource group, and reads and resets the counters of the requests that followed', async () => {
    await admin.createResourceGroup({ subscriptionId: SUB, name: 'rg' });
    await admin.resetCounters();
    expect((await raw.send('PUT', `${PROFILE}?api-version=2024-02-01`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } })).status).toBe(201);
    expect(await admin.requestCounts()).toEqual([{ method: 'PUT', resourceType: 'Microsoft.Cdn/profiles', status: 201, count: 1 }]);
    await admin.resetCounters();
    expect(await admin.requestCounts()).toEqual([]);
  });

  it('injects a fault that the first matching request takes, lists what is left and clears them', async () => {
    const put = await admin.injectFault({ kind: 'latency', latencyMs: 0, method: 'PUT', pathPattern: '/profiles/fd(/|$)' });
    const del = await admin.injectFault({ kind: 'latency', latencyMs: 0, method: 'DELETE', pathPattern: '/profiles/fd(/|$)' });
    expect((await raw.send('GET', `${PROFILE}?api-version=2024-02-01`)).status).toBe(200);
    expect((await admin.listFaults()).map((f) => f.id)).toEqual([put.id, del.id]);
    expect((await raw.send('PUT', `${PROFILE}/afdEndpoints/e?api-version=2024-02-01`, { location: 'global' })).status).toBe(201);
    expect((await admin.listFaults()).map((f) => f.id)).toEqual([del.id]);
    await admin.clearFaults();
    expect(await admin.listFaults()).toEqual([]);
  });

  it("rejects with the admin API's answer, naming the field", async () => {
    await expect(admin.injectFault({ kind: 'status', status: 418 as 400 })).rejects.toThrow(/POST \/faults with 400: .*'status' must be one of 400/);
    expect(await admin.listFaults()).toEqual([]);
  });
});
