import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restErrorOf } from '../testing/errors.js';
import { createInternalLoadBalancer, createPrivateLinkService } from '../testing/network-fixtures.js';
import { FAST_POLLING, RESOURCE_GROUP, collect, SUBSCRIPTION, networkId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ pageSize: 3, limits: { network: { loadBalancingRulesPerLoadBalancer: 2 } } });
});
afterAll(() => bed.emulator.stop());

describe('publicIPAddresses through @azure/arm-network', () => {
  it('allocates an address and an FQDN; tags update; delete', async () => {
    const pip = await bed.network.publicIPAddresses.createOrUpdate(
      RG,
      'pip-web',
      { location: 'eastus', sku: { name: 'Standard' }, dnsSettings: { domainNameLabel: 'fleet-web' } },
      FAST_POLLING,
    );
    expect(pip.ipAddress).toMatch(/^20\.50\.\d+\.\d+$/);
    expect(pip.dnsSettings?.fqdn).toBe('fleet-web.eastus.cloudapp.azure.com');
    expect((await bed.network.publicIPAddresses.get(RG, 'PIP-WEB')).ipAddress).toBe(pip.ipAddress);
    expect((await bed.network.publicIPAddresses.updateTags(RG, 'pip-web', { tags: { team: 'a' } })).tags).toEqual({ team: 'a' });
    expect((await collect(bed.network.publicIPAddresses.list(RG))).map((p) => p.name)).toContain('pip-web');
    const duplicate = await restErrorOf(
      bed.network.publicIPAddresses.createOrUpdate(RG, 'pip-other', { location: 'eastus', dnsSettings: { domainNameLabel: 'fleet-web' } }, FAST_POLLING),
    );
    expect(duplicate.code).toBe('DnsRecordInUse');
    await bed.network.publicIPAddresses.delete(RG, 'pip-web', FAST_POLLING);
    expect((await restErrorOf(bed.network.publicIPAddresses.get(RG, 'pip-web'))).statusCode).toBe(404);
  });
});

describe('loadBalancers through @azure/arm-network', () => {
  it('gives internal frontends private addresses and keeps them across updates', async () => {
    const created = await createInternalLoadBalancer(bed, 'kubernetes-internal', ['fe-a', 'fe-b']);
    const [a, b] = created.frontendIPConfigurations ?? [];
    expect(a?.privateIPAddress).toMatch(/^10\.224\.\d+\.\d+$/);
    expect(b?.privateIPAddress).not.toBe(a?.privateIPAddress);
    expect(a?.id).toBe(networkId('loadBalancers', 'kubernetes-internal', 'frontendIPConfigurations', 'fe-a'));
    const again = await createInternalLoadBalancer(bed, 'kubernetes-internal', ['fe-a', 'fe-b', 'fe-c']);
    expect(again.frontendIPConfigurations?.[0]?.privateIPAddress).toBe(a?.privateIPAddress);
    expect((await bed.network.loadBalancers.updateTags(RG, 'kubernetes-internal', { tags: { k: 'v' } })).tags).toEqual({ k: 'v' });
    expect((await bed.network.loadBalancers.get(RG, 'KUBERNETES-INTERNAL')).frontendIPConfigurations).toHaveLength(3);
    expect((await collect(bed.network.loadBalancers.listAll())).map((lb) => lb.name)).toContain('kubernetes-internal');
  });

  it('refuses more load balancing rules than the limit (1,500 on Azure; 2 here)', async () => {
    const frontend = { id: networkId('loadBalancers', 'lb-rules', 'frontendIPConfigurations', 'fe') };
    const rule = (port: number) => ({ name: `fe-TCP-${port}`, frontendIPConfiguration: frontend, protocol: 'Tcp', frontendPort: port, backendPort: port });
    const body = (ports: number[]) => ({
      location: 'eastus',
      sku: { name: 'Standard' },
      frontendIPConfigurations: [{ name: 'fe', subnet: { id: networkId('virtualNetworks', 'vnet', 'subnets', 'nodes') } }],
      loadBalancingRules: ports.map(rule),
    });
    await bed.network.loadBalancers.createOrUpdate(RG, 'lb-rules', body([80, 443]), FAST_POLLING);
    const refused = await restErrorOf(bed.network.loadBalancers.createOrUpdate(RG, 'lb-rules', body([80, 443, 8080]), FAST_POLLING));
    expect([refused.statusCode, refused.code, refused.message]).toEqual([
      400,
      'QuotaExceeded',
      'A load balancer can have at most 2 load balancing rules; got 3.',
    ]);
    expect((await bed.network.loadBalancers.get(RG, 'lb-rules')).loadBalancingRules).toHaveLength(2);
  });

  it('public frontends reference a public IP, which then cannot be deleted', async () => {
    const pip = await bed.network.publicIPAddresses.createOrUpdate(RG, 'pip-lb', { location: 'eastus', sku: { name: 'Standard' } }, FAST_POLLING);
    await bed.network.loadBalancers.createOrUpdate(
      RG,
      'kubernetes',
      { location: 'eastus', sku: { name: 'Standard' }, frontendIPConfigurations: [{ name: 'public-fe', publicIPAddress: { id: pip.id } }] },
      FAST_POLLING,
    );
    const refused = await restErrorOf(bed.network.publicIPAddresses.delete(RG, 'pip-lb', FAST_POLLING));
    expect(refused.code).toBe('PublicIPAddressCannotBeDeleted');
    const missing = await restErrorOf(
      bed.network.loadBalancers.createOrUpdate(
        RG,
        'lb-bad',
        {
          location: 'eastus',
          sku: { name: 'Standard' },
          frontendIPConfigurations: [{ name: 'x', publicIPAddress: { id: networkId('publicIPAddresses', 'nope') } }],
        },
        FAST_POLLING,
      ),
    );
    expect(missing.code).toBe('InvalidResourceReference');
    await bed.network.loadBalancers.delete(RG, 'kubernetes', FAST_POLLING);
    await bed.network.publicIPAddresses.delete(RG, 'pip-lb', FAST_POLLING);
  });
});

describe('privateLinkServices through @azure/arm-network', () => {
  it('creates a service with an alias on a frontend; lists; deletes', async () => {
    await createInternalLoadBalancer(bed, 'lb-pls', ['fe-1']);
    const service = await createPrivateLinkService(bed, 'pls-1', 'lb-pls', 'fe-1', {
      visibility: { subscriptions: ['*'] },
      autoApproval: { subscriptions: [SUBSCRIPTION] },
    });
    expect(service.alias).toMatch(/^pls-1\.[0-9a-f-]{36}\.eastus\.azure\.privatelinkservice$/);
    expect(service.ipConfigurations?.[0]?.privateIPAddress).toMatch(/^10\.224\./);
    expect(service.privateEndpointConnections).toEqual([]);
    expect((await collect(bed.network.privateLinkServices.list(RG))).map((s) => s.name)).toContain('pls-1');
    expect((await collect(bed.network.privateLinkServices.listBySubscription())).map((s) => s.name)).toContain('pls-1');
    expect(await collect(bed.network.privateLinkServices.listPrivateEndpointConnections(RG, 'pls-1'))).toEqual([]);
    const updated = await createPrivateLinkService(bed, 'PLS-1', 'lb-pls', 'fe-1', {
      visibility: { subscriptions: [SUBSCRIPTION] },
      fqdns: ['app.contoso.example'],
    });
    expect(updated.name).toBe('pls-1');
    expect(updated.alias).toBe(service.alias);
    expect(updated.visibility?.subscriptions).toEqual([SUBSCRIPTION]);
    expect(updated.fqdns).toEqual(['app.contoso.example']);

    const frontendTaken = await restErrorOf(createPrivateLinkService(bed, 'pls-dup', 'lb-pls', 'fe-1'));
    expect(frontendTaken.code).toBe('FrontendIPConfigurationAlreadyUsedByPrivateLinkService');
    const lbInUse = await restErrorOf(bed.network.loadBalancers.delete(RG, 'lb-pls', FAST_POLLING));
    expect(lbInUse.code).toBe('InUseFrontendIPConfigurationCannotBeDeleted');

    await bed.network.privateLinkServices.delete(RG, 'pls-1', FAST_POLLING);
    expect((await restErrorOf(bed.network.privateLinkServices.get(RG, 'pls-1'))).statusCode).toBe(404);
    await bed.network.loadBalancers.delete(RG, 'lb-pls', FAST_POLLING);
  });

  it('allows at most 8 private link services per Standard load balancer', async () => {
    const frontends = Array.from({ length: 9 }, (_, i) => `fe-${i}`);
    await createInternalLoadBalancer(bed, 'lb-many', frontends);
    for (const frontend of frontends.slice(0, 8)) await createPrivateLinkService(bed, `pls-${frontend}`, 'lb-many', frontend);
    const ninth = await restErrorOf(createPrivateLinkService(bed, 'pls-fe-8', 'lb-many', 'fe-8'));
    expect(ninth.statusCode).toBe(400);
    expect(ninth.code).toBe('QuotaExceeded');
    expect(ninth.message).toContain('at most 8 private link services');
  });

  it('rejects a service on a missing frontend, and one without NAT IP configurations, naming the field', async () => {
    const missing = await restErrorOf(createPrivateLinkService(bed, 'pls-x', 'lb-none', 'fe'));
    expect(missing.code).toBe('InvalidResourceReference');
    await createInternalLoadBalancer(bed, 'lb-nat', ['fe']);
    const noNat = await restErrorOf(createPrivateLinkService(bed, 'pls-nat', 'lb-nat', 'fe', { ipConfigurations: [] }));
    expect(noNat.message).toContain("'properties.ipConfigurations' must hold between 1 and 8");
    const badType = await restErrorOf(createPrivateLinkService(bed, 'pls-nat', 'lb-nat', 'fe', { accessMode: 'Wide-open' }));
    expect(badType.code).toBe('InvalidRequestFormat');
    expect(badType.message).toContain("'properties.accessMode' must be one of 'Default', 'Restricted'");
  });
});

describe('Front Door WAF policies through @azure/arm-frontdoor', () => {
  it('reads policies the admin API created', async () => {
    const id = bed.emulator.admin.createWafPolicy({
      subscriptionId: SUBSCRIPTION,
      resourceGroup: RG,
      name: 'fleetWaf',
      sku: 'Premium_AzureFrontDoor',
      mode: 'Detection',
    });
    const policy = await bed.frontDoor.policies.get(RG, 'fleetWaf');
    expect(policy.id).toBe(id);
    expect(policy.sku?.name).toBe('Premium_AzureFrontDoor');
    expect(policy.policySettings?.mode).toBe('Detection');
    expect(policy.provisioningState).toBe('Succeeded');
    expect((await collect(bed.frontDoor.policies.list(RG))).map((p) => p.name)).toEqual(['fleetWaf']);
    expect((await collect(bed.frontDoor.policies.listBySubscription())).map((p) => p.name)).toEqual(['fleetWaf']);
    bed.emulator.admin.deleteWafPolicy(id);
    expect((await restErrorOf(bed.frontDoor.policies.get(RG, 'fleetWaf'))).statusCode).toBe(404);
  });
});
