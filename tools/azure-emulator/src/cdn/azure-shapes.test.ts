import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createRoute } from '../testing/afd-fixtures.js';
import { RawArmClient } from '../raw-arm-client.js';
import { createInternalLoadBalancer, createPrivateLinkService } from '../testing/network-fixtures.js';
import { FAST_POLLING, RESOURCE_GROUP as RG, SUBSCRIPTION, cdnId, startTestBed, type TestBed } from '../testing/sdk.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
  // The request spells the profile `FD` and the group the way the SDK does (`resourceGroups`).
  await bed.cdn.profiles.beginCreateAndWait(RG, 'FD', { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }, FAST_POLLING);
});
afterAll(() => bed.emulator.stop());

const afdId = (...typeAndNames: string[]) => `/subscriptions/${SUBSCRIPTION}/resourcegroups/${RG}/providers/Microsoft.Cdn/${typeAndNames.join('/')}`;

describe('responses as Azure shapes them (A4)', () => {
  it('child types in lower case, ids with `resourcegroups` and lower-case types, names as the creating request spelled them; lookups ignore case', async () => {
    await createEndpoint(bed, 'fd', 'Web');
    await createOriginGroup(bed, 'fd', 'OG');
    const origin = await createOrigin(bed, 'fd', 'og', { name: 'One', hostName: '10.0.0.1' });
    const route = await createRoute(bed, 'fd', 'web', 'Default', 'og');
    expect([origin.type, origin.id]).toEqual(['Microsoft.Cdn/profiles/origingroups/origins', afdId('profiles', 'fd', 'origingroups', 'og', 'origins', 'One')]);
    expect([route.type, route.id]).toEqual(['Microsoft.Cdn/profiles/afdendpoints/routes', afdId('profiles', 'fd', 'afdendpoints', 'web', 'routes', 'Default')]);
    const endpoint = await bed.cdn.afdEndpoints.get(RG, 'fd', 'WEB');
    expect([endpoint.type, endpoint.name, endpoint.id]).toEqual(['Microsoft.Cdn/profiles/afdendpoints', 'Web', afdId('profiles', 'fd', 'afdendpoints', 'Web')]);
    expect((await bed.cdn.profiles.get(RG, 'fd')).id).toBe(afdId('profiles', 'FD'));
    // A reference keeps the casing it was sent with: comparing it case-sensitively with a returned id fails, as on Azure.
    expect(route.originGroup?.id).toBe(cdnId('profiles', 'fd', 'originGroups', 'og'));
    expect(route.originGroup?.id).not.toBe((await bed.cdn.afdOriginGroups.get(RG, 'fd', 'og')).id);
    const lb = await createInternalLoadBalancer(bed, 'shapes-lb', ['fe']);
    expect([lb.type, lb.id?.includes('/resourceGroups/')]).toEqual(['Microsoft.Network/loadBalancers', true]);
  });

  it('fills in what Azure fills in: profile tags and response timeout, rule condition transforms, route isActive and nulls, managed secret, PLS network interfaces', async () => {
    const profile = await bed.cdn.profiles.get(RG, 'fd');
    expect([profile.tags, profile.originResponseTimeoutSeconds]).toEqual([{}, 30]);

    await bed.cdn.afdCustomDomains.beginCreateAndWait(
      RG,
      'fd',
      'shop',
      { hostName: 'shop.contoso.example', tlsSettings: { certificateType: 'ManagedCertificate' } },
      FAST_POLLING,
    );
    const domain = await bed.cdn.afdCustomDomains.get(RG, 'fd', 'shop');
    expect(domain.tlsSettings?.secret?.id).toBe(afdId('profiles', 'fd', 'secrets', 'shop-managed'));
    const route = await bed.cdn.routes.beginUpdateAndWait(
      RG,
      'fd',
      'web',
      'default',
      { customDomains: [{ id: cdnId('profiles', 'fd', 'customDomains', 'shop') }] },
      FAST_POLLING,
    );
    expect(route.customDomains).toEqual([{ id: cdnId('profiles', 'fd', 'customDomains', 'shop'), isActive: true }]);
    const raw = bed.emulator.admin.dumpResources().resources.find((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes');
    expect((raw?.body as { properties: Record<string, unknown> }).properties.originPath).toBeUndefined();
    const client = new RawArmClient(bed.emulator.armEndpoint, bed.emulator.caCertificate);
    const wire = await client.send('GET', `${cdnId('profiles', 'fd', 'afdEndpoints', 'web', 'routes', 'default')}?api-version=2024-02-01`);
    client.close();
    expect((wire.body as { properties: Record<string, unknown> }).properties).toMatchObject({ originPath: null, cacheConfiguration: null });

    await bed.cdn.ruleSets.create(RG, 'fd', 'rs');
    const rule = await bed.cdn.rules.beginCreateAndWait(
      RG,
      'fd',
      'rs',
      'm1',
      {
        order: 1,
        conditions: [
          { name: 'RequestMethod', parameters: { typeName: 'DeliveryRuleRequestMethodConditionParameters', operator: 'Equal', matchValues: ['GET'] } },
        ],
        actions: [
          {
            name: 'ModifyResponseHeader',
            parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction: 'Append', headerName: 'x-a', value: '1' },
          },
        ],
      },
      FAST_POLLING,
    );
    expect((rule.conditions?.[0] as { parameters?: unknown } | undefined)?.parameters).toMatchObject({ transforms: [] });

    const lb = await createInternalLoadBalancer(bed, 'shapes-pls-lb', ['fe']);
    await createPrivateLinkService(bed, 'shapes-pls', 'shapes-pls-lb', 'fe');
    const pls = await bed.network.privateLinkServices.get(RG, 'shapes-pls');
    expect(pls.networkInterfaces).toEqual([
      { id: expect.stringMatching(new RegExp(`/resourceGroups/${RG}/providers/Microsoft.Network/networkInterfaces/shapes-pls\\.nic\\.[0-9a-f-]{36}$`)) },
    ]);
    expect(lb.name).toBe('shapes-pls-lb');
  });
});
