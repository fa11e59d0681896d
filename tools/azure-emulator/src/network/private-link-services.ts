import { randomUUID } from 'node:crypto';
import { ArmError } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import { renderResource } from '../arm/render.js';
import { resourceKey } from '../arm/resource-id.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import {
  NETWORK,
  assignPrivateAddresses,
  findFrontend,
  identifySubResources,
  invalidReference,
  networkKind,
  privateLinkServicesByFrontend,
  quotaExceeded,
  type IpConfiguration,
} from './network-common.js';

/**
 * Microsoft.Network/privateLinkServices: on frontends of Standard load balancers (one service per frontend, at most
 * 8 per load balancer), 1–8 NAT IP configurations, an alias `<name>.<guid>.<location>.azure.privatelinkservice`,
 * and the private endpoint connections made to it.
 */
export const privateLinkServiceKind = networkKind({
  types: ['privateLinkServices'],
  putSchema: 'network/2025-05-01/privateLinkService.json#PrivateLinkService',
  check(request, context) {
    checkFrontends(request, context);
    const ipConfigurations = ipConfigurationsOf(request.body.properties);
    const maxIpConfigurations = context.limits.network.ipConfigurationsPerPrivateLinkService;
    if (ipConfigurations.length < 1 || ipConfigurations.length > maxIpConfigurations) {
      throw new ArmError(
        400,
        'InvalidRequestFormat',
        `'properties.ipConfigurations' must hold between 1 and ${maxIpConfigurations} NAT IP configurations; got ${ipConfigurations.length}.`,
      );
    }
    if (request.existing === undefined) {
      const count = context.store.inSubscription(NETWORK.privateLinkService, request.path.subscriptionId).length;
      const max = context.limits.network.privateLinkServicesPerSubscription;
      if (count >= max) throw quotaExceeded(`A subscription can hold at most ${max} private link services.`);
    }
  },
  prepare(record, _request, context) {
    record.internal.alias ??= `${record.name}.${randomUUID()}.${String(record.body.location).toLowerCase()}.azure.privatelinkservice`;
    record.internal.networkInterfaceId ??= `/subscriptions/${record.path.subscriptionId}/resourceGroups/${record.path.resourceGroup}/providers/Microsoft.Network/networkInterfaces/${record.name}.nic.${randomUUID()}`;
    identifySubResources(record, 'ipConfigurations', 'Microsoft.Network/privateLinkServices/ipConfigurations');
    const previous = (record.internal.natAddresses ?? {}) as Record<string, string>;
    record.internal.natAddresses = assignPrivateAddresses(ipConfigurationsOf(record.body.properties), previous, context.addresses);
  },
  render(record, context) {
    const connectionKind = context.kinds.find(NETWORK.privateEndpointConnection);
    const connections = context.store.ofKind(NETWORK.privateEndpointConnection, record.key);
    return {
      alias: record.internal.alias,
      // The NAT side of the service: Azure creates a network interface for it and lists it here.
      networkInterfaces: [{ id: record.internal.networkInterfaceId }],
      privateEndpointConnections: connectionKind === undefined ? [] : connections.map((c) => renderResource(c, connectionKind, context)),
    };
  },
  onRemoved(record, context) {
    for (const address of Object.values((record.internal.natAddresses ?? {}) as Record<string, string>)) context.addresses.release(address);
  },
});

function ipConfigurationsOf(properties: Record<string, unknown>): IpConfiguration[] {
  return (properties.ipConfigurations as IpConfiguration[] | undefined) ?? [];
}

function checkFrontends(request: WriteRequest, context: EmulatorContext): void {
  const references = (request.body.properties.loadBalancerFrontendIpConfigurations as Array<{ id?: unknown }> | undefined) ?? [];
  if (references.length === 0) {
    throw new ArmError(400, 'InvalidRequestFormat', "'properties.loadBalancerFrontendIpConfigurations' must reference at least one load balancer frontend.");
  }
  const users = privateLinkServicesByFrontend(context);
  for (const reference of references) {
    const found = findFrontend(reference.id, context);
    if (found === undefined) throw invalidReference(reference.id, request.path.names[0] as string);
    if (found.loadBalancer.body.sku?.name !== 'Standard') {
      throw new ArmError(
        400,
        'PrivateLinkServiceNotSupportedOnNonStandardLoadBalancer',
        `Load balancer '${found.loadBalancer.name}' must have the Standard SKU.`,
      );
    }
    const user = users.get(resourceKey(String(reference.id)));
    if (user !== undefined && user.key !== request.key) {
      throw new ArmError(
        400,
        'FrontendIPConfigurationAlreadyUsedByPrivateLinkService',
        `Frontend IP configuration ${String(reference.id)} is already used by private link service ${user.id}.`,
      );
    }
    checkServicesPerLoadBalancer(found.loadBalancer, users, request, context);
  }
}

function checkServicesPerLoadBalancer(loadBalancer: ResourceRecord, users: Map<string, ResourceRecord>, request: WriteRequest, context: EmulatorContext): void {
  const services = new Set<string>([request.key]);
  for (const [frontendKey, service] of users) if (frontendKey.startsWith(`${loadBalancer.key}/`)) services.add(service.key);
  const max = context.limits.network.privateLinkServicesPerStandardLoadBalancer;
  if (services.size > max) {
    throw quotaExceeded(`Load balancer '${loadBalancer.name}' can be used by at most ${max} private link services; this would make ${services.size}.`);
  }
}
