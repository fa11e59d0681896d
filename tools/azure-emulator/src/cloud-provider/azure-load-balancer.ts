import type { LoadBalancer, NetworkManagementClient, PrivateLinkService } from '@azure/arm-network';
import { FAST_POLLING } from '../sdk-options.js';
import { TAGS, type CloudSettings, type LoadBalancerPlan, type PrivateLinkPlan } from './service-annotations.js';

export interface ServiceAddress {
  ip: string;
  fqdn?: string;
}

/**
 * Writes what cloud-provider-azure writes for a LoadBalancer Service, through Microsoft.Network:
 * a frontend (+ rules) on `<cluster>` or `<cluster>-internal`, a public IP for public Services, and a
 * Private Link Service on the frontend when asked. Removal deletes the PLS's connections first, as AKS does.
 */
export class AzureLoadBalancerWriter {
  constructor(
    private readonly network: NetworkManagementClient,
    private readonly settings: CloudSettings,
  ) {}

  async ensure(plan: LoadBalancerPlan): Promise<ServiceAddress> {
    const publicIp = plan.publicIpName === undefined ? undefined : await this.ensurePublicIp(plan);
    const loadBalancer = await this.ensureFrontend(plan, publicIp?.id);
    const frontend = loadBalancer.frontendIPConfigurations?.find((candidate) => candidate.name === plan.frontendName);
    if (plan.privateLink !== undefined) await this.ensurePrivateLinkService(plan, plan.privateLink, frontend?.id as string);
    if (publicIp !== undefined) return { ip: publicIp.ipAddress as string, ...(publicIp.dnsSettings?.fqdn ? { fqdn: publicIp.dnsSettings.fqdn } : {}) };
    return { ip: frontend?.privateIPAddress as string };
  }

  async remove(plan: LoadBalancerPlan): Promise<void> {
    if (plan.privateLink !== undefined) await this.removePrivateLinkService(plan.privateLink);
    const group = this.settings.resourceGroup;
    const existing = await this.network.loadBalancers.get(group, plan.loadBalancerName).catch(notFoundAsUndefined);
    if (existing !== undefined) {
      const frontends = (existing.frontendIPConfigurations ?? []).filter((frontend) => frontend.name !== plan.frontendName);
      if (frontends.length === 0) {
        await this.network.loadBalancers.delete(group, plan.loadBalancerName, FAST_POLLING);
      } else {
        const rules = (existing.loadBalancingRules ?? []).filter((rule) => !rule.name?.startsWith(`${plan.frontendName}-`));
        await this.network.loadBalancers.createOrUpdate(
          group,
          plan.loadBalancerName,
          { ...existing, frontendIPConfigurations: frontends, loadBalancingRules: rules },
          FAST_POLLING,
        );
      }
    }
    if (plan.publicIpName !== undefined) await this.network.publicIPAddresses.delete(group, plan.publicIpName, FAST_POLLING);
  }

  private async ensurePublicIp(plan: LoadBalancerPlan) {
    return this.network.publicIPAddresses.createOrUpdate(
      this.settings.resourceGroup,
      plan.publicIpName as string,
      {
        location: this.settings.location,
        sku: { name: 'Standard' },
        publicIPAllocationMethod: 'Static',
        tags: { [TAGS.service]: plan.serviceName, [TAGS.clusterName]: this.settings.clusterName },
        ...(plan.dnsLabel === undefined ? {} : { dnsSettings: { domainNameLabel: plan.dnsLabel } }),
      },
      FAST_POLLING,
    );
  }

  private async ensureFrontend(plan: LoadBalancerPlan, publicIpId: string | undefined): Promise<LoadBalancer> {
    const group = this.settings.resourceGroup;
    const existing = await this.network.loadBalancers.get(group, plan.loadBalancerName).catch(notFoundAsUndefined);
    const lbId = `/subscriptions/${this.settings.subscriptionId}/resourceGroups/${group}/providers/Microsoft.Network/loadBalancers/${plan.loadBalancerName}`;
    const frontendId = `${lbId}/frontendIPConfigurations/${plan.frontendName}`;
    const poolId = `${lbId}/backendAddressPools/${this.settings.clusterName}`;
    const frontend =
      publicIpId === undefined
        ? { name: plan.frontendName, privateIPAllocationMethod: 'Dynamic', subnet: { id: this.subnetId(plan.subnet) } }
        : { name: plan.frontendName, publicIPAddress: { id: publicIpId } };
    const rules = plan.ports.map((port) => ({
      name: `${plan.frontendName}-${port.protocol}-${port.port}`,
      frontendIPConfiguration: { id: frontendId },
      backendAddressPool: { id: poolId },
      protocol: port.protocol === 'UDP' ? 'Udp' : 'Tcp',
      frontendPort: port.port,
      backendPort: port.port,
      enableFloatingIP: true,
      idleTimeoutInMinutes: 4,
    }));
    return this.network.loadBalancers.createOrUpdate(
      group,
      plan.loadBalancerName,
      {
        location: this.settings.location,
        sku: { name: 'Standard' },
        frontendIPConfigurations: [...(existing?.frontendIPConfigurations ?? []).filter((f) => f.name !== plan.frontendName), frontend],
        backendAddressPools: [{ name: this.settings.clusterName }],
        loadBalancingRules: [...(existing?.loadBalancingRules ?? []).filter((r) => !r.name?.startsWith(`${plan.frontendName}-`)), ...rules],
      },
      FAST_POLLING,
    );
  }

  private async ensurePrivateLinkService(plan: LoadBalancerPlan, link: PrivateLinkPlan, frontendId: string): Promise<PrivateLinkService> {
    return this.network.privateLinkServices.createOrUpdate(
      link.resourceGroup,
      link.name,
      {
        location: this.settings.location,
        tags: { [TAGS.clusterName]: this.settings.clusterName, [TAGS.ownerService]: plan.serviceName },
        loadBalancerFrontendIpConfigurations: [{ id: frontendId }],
        ipConfigurations: Array.from({ length: link.ipConfigurationCount }, (_, i) => ({
          name: `${link.subnet}-${link.name}-dynamic-${i}`,
          privateIPAllocationMethod: 'Dynamic',
          privateIPAddressVersion: 'IPv4',
          primary: i === 0,
          subnet: { id: this.subnetId(link.subnet) },
        })),
        visibility: { subscriptions: link.visibility },
        autoApproval: { subscriptions: link.autoApproval },
        fqdns: link.fqdns,
        enableProxyProtocol: link.proxyProtocol,
      },
      FAST_POLLING,
    );
  }

  private async removePrivateLinkService(link: PrivateLinkPlan): Promise<void> {
    const service = await this.network.privateLinkServices.get(link.resourceGroup, link.name).catch(notFoundAsUndefined);
    if (service === undefined) return;
    for (const connection of service.privateEndpointConnections ?? []) {
      await this.network.privateLinkServices.deletePrivateEndpointConnection(link.resourceGroup, link.name, connection.name as string, FAST_POLLING);
    }
    await this.network.privateLinkServices.delete(link.resourceGroup, link.name, FAST_POLLING);
  }

  private subnetId(subnet: string): string {
    const { subscriptionId, resourceGroup, vnetName } = this.settings;
    return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/virtualNetworks/${vnetName}/subnets/${subnet}`;
  }
}

function notFoundAsUndefined(error: { statusCode?: number }): undefined {
  if (error.statusCode === 404) return undefined;
  throw error;
}
