import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restErrorOf as errorOf } from '../testing/errors.js';
import { FAST_POLLING, RESOURCE_GROUP, SUBSCRIPTION, startTestBed, type TestBed } from '../testing/sdk.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ pageSize: 2 });
});
afterAll(() => bed.emulator.stop());

describe('Microsoft.Cdn/profiles through @azure/arm-cdn', () => {
  it('creates, reads, updates, lists and deletes a profile', async () => {
    const created = await bed.cdn.profiles.beginCreateAndWait(
      RESOURCE_GROUP,
      'fd-one',
      { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, tags: { owner: 'fleet' } },
      FAST_POLLING,
    );
    expect(created.provisioningState).toBe('Succeeded');
    expect(created.frontDoorId).toMatch(/^[0-9a-f-]{36}$/);
    // Azure spells `resourcegroups` in AFD ids whatever the request said (Azure/azure-cli#28412).
    expect(created.id).toBe(`/subscriptions/${SUBSCRIPTION}/resourcegroups/${RESOURCE_GROUP}/providers/Microsoft.Cdn/profiles/fd-one`);
    expect(created.type).toBe('Microsoft.Cdn/profiles');

    const updated = await bed.cdn.profiles.beginUpdateAndWait(RESOURCE_GROUP, 'fd-one', { tags: { owner: 'platform' } }, FAST_POLLING);
    expect(updated.tags).toEqual({ owner: 'platform' });
    expect(updated.sku?.name).toBe('Standard_AzureFrontDoor');

    const read = await bed.cdn.profiles.get(RESOURCE_GROUP, 'FD-ONE');
    expect(read.name).toBe('fd-one');

    await bed.cdn.profiles.beginDeleteAndWait(RESOURCE_GROUP, 'fd-one', FAST_POLLING);
    const missing = await errorOf(bed.cdn.profiles.get(RESOURCE_GROUP, 'fd-one'));
    expect(missing.statusCode).toBe(404);
    expect(missing.code).toBe('ResourceNotFound');
  });

  it('pages lists with nextLink', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) {
      await bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, name, { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }, FAST_POLLING);
    }
    const names: string[] = [];
    for await (const profile of bed.cdn.profiles.listByResourceGroup(RESOURCE_GROUP)) names.push(profile.name as string);
    expect(names).toEqual(expect.arrayContaining(['page-a', 'page-b', 'page-c']));
    const pages: number[] = [];
    for await (const page of bed.cdn.profiles.list().byPage()) pages.push(page.length);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.every((size) => size <= 2)).toBe(true);
  });

  it('refuses a PUT that changes the SKU and keeps the old SKU', async () => {
    await bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd-sku', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING);
    const error = await errorOf(
      bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd-sku', { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }, FAST_POLLING),
    );
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("cannot be changed from 'Standard_AzureFrontDoor' to 'Premium_AzureFrontDoor'");
    expect((await bed.cdn.profiles.get(RESOURCE_GROUP, 'fd-sku')).sku?.name).toBe('Standard_AzureFrontDoor');
  });

  it('answers 400 naming the field for a body that breaks the official schema', async () => {
    const error = await errorOf(
      bed.cdn.profiles.beginCreateAndWait(
        RESOURCE_GROUP,
        'fd-bad',
        { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, originResponseTimeoutSeconds: 5 },
        FAST_POLLING,
      ),
    );
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("'properties.originResponseTimeoutSeconds' must be >= 16");
  });

  it('refuses a location other than global', async () => {
    const error = await errorOf(
      bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd-where', { location: 'westeurope', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING),
    );
    expect(error.code).toBe('LocationNotAvailableForResourceType');
  });
});
