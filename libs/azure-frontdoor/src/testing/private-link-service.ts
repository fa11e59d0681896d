import { NetworkManagementClient } from '@azure/arm-network';
import type { RunningEmulator } from '@fleet-gateway/azure-emulator';
import type { TokenCredential } from '@fleet-gateway/arm-runtime';
import { stubCredential, TEST_SCOPE } from './emulator-harness.js';

/**
 * Test support: what AKS's cloud provider creates for a member Service with Private Link (a Standard internal load
 * balancer and a Private Link Service on its frontend), and what the member agent does (approve a connection).
 */
export interface MemberNetwork {
  readonly client: NetworkManagementClient;
  readonly resourceGroup: string;
}

export function memberNetwork(emulator: RunningEmulator, cluster: string, credential: TokenCredential = stubCredential): MemberNetwork {
  const client = new NetworkManagementClient(credential, TEST_SCOPE.subscriptionId, {
    endpoint: emulator.armEndpoint,
    tlsOptions: { ca: emulator.caCertificate },
  });
  // AKS creates the node resource group with the cluster.
  const resourceGroup = `mc-${cluster}`;
  emulator.admin.createResourceGroup({ subscriptionId: TEST_SCOPE.subscriptionId, name: resourceGroup });
  return { client, resourceGroup };
}

const SUBNET = (rg: string) => `/subscriptions/${TEST_SCOPE.subscriptionId}/resourceGroups/${rg}/providers/Microsoft.Network/virtualNetworks/vnet/subnets/aks`;

/** Creates the internal load balancer and the Private Link Service `pls-<name>`; returns the service id and ILB address. */
export async function createPrivateLinkService(network: MemberNetwork, name: string): Promise<{ id: string; address: string }> {
  const { client, resourceGroup: rg } = network;
  const lro = { updateIntervalInMs: 5 };
  const lb = await client.loadBalancers.createOrUpdate(
    rg,
    'kubernetes-internal',
    {
      location: 'eastus2',
      sku: { name: 'Standard' },
      frontendIPConfigurations: [{ name: `fe-${name}`, subnet: { id: SUBNET(rg) }, privateIPAllocationMethod: 'Dynamic' }],
    },
    lro,
  );
  const frontend = lb.frontendIPConfigurations?.[0];
  const pls = await client.privateLinkServices.createOrUpdate(
    rg,
    `pls-${name}`,
    {
      location: 'eastus2',
      loadBalancerFrontendIpConfigurations: [{ id: frontend?.id }],
      ipConfigurations: [{ name: 'nat', subnet: { id: SUBNET(rg) }, privateIPAllocationMethod: 'Dynamic', primary: true }],
    },
    lro,
  );
  return { id: pls.id ?? '', address: frontend?.privateIPAddress ?? '' };
}

/** Approves the pending connection whose description is the request message, as the member agent would. */
export async function approveConnection(network: MemberNetwork, service: string, requestMessage: string): Promise<void> {
  const { client, resourceGroup: rg } = network;
  for await (const connection of client.privateLinkServices.listPrivateEndpointConnections(rg, service)) {
    if (connection.privateLinkServiceConnectionState?.description !== requestMessage) continue;
    await client.privateLinkServices.updatePrivateEndpointConnection(rg, service, connection.name ?? '', {
      ...connection,
      privateLinkServiceConnectionState: { status: 'Approved', description: requestMessage },
    });
    return;
  }
  throw new Error(`no private endpoint connection on ${service} carries the request message ${requestMessage}`);
}
