import type { LoadBalancer, PrivateLinkService } from '@azure/arm-network';
import { FAST_POLLING, RESOURCE_GROUP, networkId, type TestBed } from './sdk.js';

export async function createInternalLoadBalancer(bed: TestBed, name: string, frontends: string[]): Promise<LoadBalancer> {
  return bed.network.loadBalancers.createOrUpdate(
    RESOURCE_GROUP,
    name,
    {
      location: 'eastus',
      sku: { name: 'Standard' },
      frontendIPConfigurations: frontends.map((frontend) => ({
        name: frontend,
        privateIPAllocationMethod: 'Dynamic',
        subnet: { id: networkId('virtualNetworks', 'vnet', 'subnets', 'nodes') },
      })),
    },
    FAST_POLLING,
  );
}

export async function createPrivateLinkService(
  bed: TestBed,
  name: string,
  loadBalancer: string,
  frontend: string,
  extra: Partial<PrivateLinkService> = {},
): Promise<PrivateLinkService> {
  return bed.network.privateLinkServices.createOrUpdate(
    RESOURCE_GROUP,
    name,
    {
      location: 'eastus',
      loadBalancerFrontendIpConfigurations: [{ id: networkId('loadBalancers', loadBalancer, 'frontendIPConfigurations', frontend) }],
      ipConfigurations: [
        { name: 'nat-0', privateIPAllocationMethod: 'Dynamic', primary: true, subnet: { id: networkId('virtualNetworks', 'vnet', 'subnets', 'pls') } },
      ],
      ...extra,
    },
    FAST_POLLING,
  );
}
