import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';
import { RawArmClient } from '../raw-arm-client.js';

const PROFILE = '/subscriptions/00000000-0000-0000-0000-00000000cccc/resourceGroups/rg/providers/Microsoft.Cdn/profiles/fd';
const Q = '?api-version=2024-02-01';

let emulator: RunningEmulator;
let client: RawArmClient;
beforeAll(async () => {
  emulator = await start({ lroDelayMs: 0, throttling: false, pageSize: 2 });
  client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  emulator.admin.createResourceGroup({ subscriptionId: '00000000-0000-0000-0000-00000000cccc', name: 'rg' });
  await client.send('PUT', `${PROFILE}${Q}`, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } });
});
afterAll(async () => {
  client.close();
  await emulator.stop();
});

describe('AFD operations on the wire, as afdx.json defines them', () => {
  it('rule set PUT is synchronous (201, then 200, no operation headers); rule PUT is long-running', async () => {
    const created = await client.send('PUT', `${PROFILE}/ruleSets/rs${Q}`);
    expect([created.status, created.headers['azure-asyncoperation'], created.headers.location]).toEqual([201, undefined, undefined]);
    expect(created.body).toMatchObject({ name: 'rs', type: 'Microsoft.Cdn/profiles/rulesets', properties: { provisioningState: 'Succeeded' } });
    expect((await client.send('PUT', `${PROFILE}/ruleSets/rs${Q}`)).status).toBe(200);
    const rule = await client.send('PUT', `${PROFILE}/ruleSets/rs/rules/r1${Q}`, {
      properties: {
        order: 1,
        actions: [
          {
            name: 'ModifyResponseHeader',
            parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction: 'Append', headerName: 'x-a', value: '1' },
          },
        ],
      },
    });
    expect(rule.status).toBe(201);
    expect(rule.headers['azure-asyncoperation']).toMatch(/operationStatuses/);
  });

  it.each(['ruleSets/rs', 'secrets/s'])('%s has no PATCH: 405 MethodNotAllowed', async (resource) => {
    const response = await client.send('PATCH', `${PROFILE}/${resource}${Q}`, { properties: {} });
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ error: { code: 'MethodNotAllowed' } });
  });

  it('a PATCH cannot change the SKU: ProfileUpdateParameters has no sku, so it is ignored', async () => {
    const patched = await client.send('PATCH', `${PROFILE}${Q}`, { sku: { name: 'Premium_AzureFrontDoor' }, tags: { a: 'b' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ sku: { name: 'Standard_AzureFrontDoor' }, tags: { a: 'b' } });
  });

  it('a PUT that changes the SKU is refused and changes nothing', async () => {
    const refused = await client.send('PUT', `${PROFILE}${Q}`, { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'BadRequest' } });
    expect((await client.send('GET', `${PROFILE}${Q}`)).body).toMatchObject({ sku: { name: 'Standard_AzureFrontDoor' }, tags: { a: 'b' } });
  });

  it('lists page with an absolute nextLink carrying the api-version and a $skiptoken', async () => {
    for (const name of ['og-a', 'og-b', 'og-c']) await client.send('PUT', `${PROFILE}/originGroups/${name}${Q}`, {});
    const first = await client.send('GET', `${PROFILE}/originGroups${Q}`);
    const page = first.body as { value: Array<{ name: string }>; nextLink: string };
    expect(page.value.map((group) => group.name)).toEqual(['og-a', 'og-b']);
    const next = new URL(page.nextLink);
    expect(`${next.protocol}//${next.host}`).toBe(emulator.armEndpoint);
    expect([next.pathname, next.searchParams.get('api-version'), next.searchParams.get('$skiptoken')]).toEqual([`${PROFILE}/originGroups`, '2024-02-01', '2']);
    const last = (await client.send('GET', page.nextLink)).body as { value: Array<{ name: string }>; nextLink?: string };
    expect([last.value.map((group) => group.name), last.nextLink]).toEqual([['og-c'], undefined]);
    expect((await client.send('GET', `${PROFILE}/originGroups${Q}&$skiptoken=bogus`)).body).toMatchObject({ error: { code: 'InvalidSkipToken' } });
  });

  it('answers ARM error bodies with the real codes for missing resources and parents', async () => {
    expect((await client.send('GET', `${PROFILE}/originGroups/ghost${Q}`)).body).toEqual({
      error: {
        code: 'ResourceNotFound',
        message:
          "The Resource 'Microsoft.Cdn/profiles/fd/originGroups/ghost' under resource group 'rg' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix",
      },
    });
    const orphan = await client.send('PUT', `${PROFILE}/originGroups/ghost/origins/o${Q}`, { properties: { hostName: 'a.example' } });
    expect([orphan.status, (orphan.body as { error: { code: string } }).error.code]).toEqual([404, 'ParentResourceNotFound']);
  });
});
