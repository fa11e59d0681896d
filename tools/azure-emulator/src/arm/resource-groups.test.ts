import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restErrorOf } from '../testing/errors.js';
import { FAST_POLLING, SUBSCRIPTION, startTestBed, type TestBed } from '../testing/sdk.js';
import { RawArmClient } from '../raw-arm-client.js';

let bed: TestBed;
let raw: RawArmClient;
beforeAll(async () => {
  bed = await startTestBed();
  raw = new RawArmClient(bed.emulator.armEndpoint, bed.emulator.caCertificate);
});
afterAll(async () => {
  raw.close();
  await bed.emulator.stop();
});

const group = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourcegroups/${name}?api-version=2021-04-01`;

describe('resource groups (Microsoft.Resources)', () => {
  it('a PUT into a resource group that does not exist answers 404 ResourceGroupNotFound, through the SDK', async () => {
    const error = await restErrorOf(
      bed.cdn.profiles.beginCreateAndWait('rg-missing', 'fd', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING),
    );
    expect([error.statusCode, error.code, error.message]).toEqual([404, 'ResourceGroupNotFound', "Resource group 'rg-missing' could not be found."]);
    const network = await restErrorOf(bed.network.publicIPAddresses.createOrUpdate('rg-missing', 'ip', { location: 'eastus' }, FAST_POLLING));
    expect([network.statusCode, network.code]).toEqual([404, 'ResourceGroupNotFound']);
    expect((await restErrorOf(bed.cdn.profiles.get('rg-missing', 'fd'))).code).toBe('ResourceGroupNotFound');
  });

  it('created through ARM (PUT .../resourcegroups/{rg}), read, listed; deleting it deletes what it holds', async () => {
    expect(await raw.send('HEAD', group('rg-arm'))).toMatchObject({ status: 404 });
    expect(await raw.send('PUT', group('rg-arm'), {})).toMatchObject({ status: 400, body: { error: { code: 'LocationRequired' } } });
    const created = await raw.send('PUT', group('rg-arm'), { location: 'westeurope', tags: { team: 'fleet' } });
    expect(created).toMatchObject({
      status: 201,
      body: {
        id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-arm`,
        name: 'rg-arm',
        location: 'westeurope',
        properties: { provisioningState: 'Succeeded' },
      },
    });
    expect(await raw.send('PUT', group('RG-ARM'), { location: 'westeurope' })).toMatchObject({ status: 200, body: { name: 'rg-arm' } });
    expect(await raw.send('PUT', group('rg-arm'), { location: 'eastus' })).toMatchObject({
      status: 409,
      body: { error: { code: 'InvalidResourceGroupLocation' } },
    });
    expect(await raw.send('GET', group('rg-arm'))).toMatchObject({ status: 200, body: { type: 'Microsoft.Resources/resourceGroups' } });
    const list = await raw.send('GET', `/subscriptions/${SUBSCRIPTION}/resourcegroups?api-version=2021-04-01`);
    expect((list.body as { value: { name: string }[] }).value.map((g) => g.name)).toEqual(expect.arrayContaining(['rg-arm']));

    await bed.cdn.profiles.beginCreateAndWait('rg-arm', 'fd', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING);
    await bed.cdn.afdEndpoints.beginCreateAndWait('rg-arm', 'fd', 'web', { location: 'global' }, FAST_POLLING);
    expect(await raw.send('DELETE', group('rg-arm'))).toMatchObject({ status: 200 });
    expect((await restErrorOf(bed.cdn.profiles.get('rg-arm', 'fd'))).code).toBe('ResourceGroupNotFound');
    expect(bed.emulator.admin.dumpResources().resources.filter((r) => r.id.toLowerCase().includes('/resourcegroups/rg-arm/'))).toEqual([]);
    expect(await raw.send('DELETE', group('rg-arm'))).toMatchObject({ status: 204 });
  });

  it('the admin API creates one too', async () => {
    expect(bed.emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: 'rg-admin' })).toBe(
      `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-admin`,
    );
    expect(
      (await bed.cdn.profiles.beginCreateAndWait('rg-admin', 'fd', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING))
        .provisioningState,
    ).toBe('Succeeded');
  });
});
