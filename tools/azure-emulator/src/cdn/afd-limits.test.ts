import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile } from '../testing/afd-fixtures.js';
import { restErrorOf } from '../testing/errors.js';
import { startTestBed, type TestBed } from '../testing/sdk.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ limits: { afd: { endpointsPerProfile: { standard: 1, premium: 2 }, originsPerOriginGroup: { standard: 2, premium: 2 } } } });
});
afterAll(() => bed.emulator.stop());

describe('AFD limits per SKU', () => {
  it('enforces endpoints per profile by SKU', async () => {
    await createProfile(bed, 'std', 'Standard_AzureFrontDoor');
    await createEndpoint(bed, 'std', 'e1');
    const error = await restErrorOf(createEndpoint(bed, 'std', 'e2'));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("endpoints per profile cannot exceed 1 for SKU 'Standard_AzureFrontDoor'");
    await createProfile(bed, 'prem');
    await createEndpoint(bed, 'prem', 'e1');
    await createEndpoint(bed, 'prem', 'e2');
    expect((await restErrorOf(createEndpoint(bed, 'prem', 'e3'))).message).toContain('cannot exceed 2');
  });

  it('enforces origins per origin group, and an update of an existing origin is not a new one', async () => {
    await createProfile(bed, 'origins');
    await createOriginGroup(bed, 'origins', 'og');
    await createOrigin(bed, 'origins', 'og', { name: 'a', hostName: 'a.example' });
    await createOrigin(bed, 'origins', 'og', { name: 'b', hostName: 'b.example' });
    expect((await createOrigin(bed, 'origins', 'og', { name: 'b', hostName: 'b2.example' })).hostName).toBe('b2.example');
    const error = await restErrorOf(createOrigin(bed, 'origins', 'og', { name: 'c', hostName: 'c.example' }));
    expect(error.message).toContain('origins per origin group cannot exceed 2');
  });
});
