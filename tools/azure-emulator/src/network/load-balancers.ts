import { ArmError } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import { resourceKey } from '../arm/resource-id.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import {
  NETWORK,
  assignPrivateAddresses,
  identifySubResources,
  invalidReference,
  networkKind,
  newResourceGuid,
  privateLinkServicesByFrontend,
  quotaExceeded,
  type IpConfiguration,
} from './network-common.js';

type Frontend = IpConfiguration;

const SUB_RESOURCES: Array<[string, string]> = [
  ['frontendIPConfigurations', 'Microsoft.Network/loadBalancers/frontendIPConfigurations'],
  ['backendAddressPools', 'Microsoft.Network/loadBalancers/backendAddressPools'],
  ['loadBalancingRules', 'Microsoft.Network/loadBalancers/loadBalancingRules'],
  ['probes', 'Microsoft.Network/loadBalancers/probes'],
  ['inboundNatRules', 'Microsoft.Network/loadBalancers/inboundNatRules'],
  ['outboundRules', 'Microsoft.Network/loadBalancers/outboundRules'],
];

/**
 * Microsoft.Network/loadBalancers: frontends get private addresses (internal) or point at a public IP;
 * a frontend a Private Link Service uses cannot be removed, nor the load balancer deleted.
 */
export const loadBalancerKind = networkKind({
  types: ['loadBalancers'],
  putSchema: 'network/2025-05-01/loadBalancer.json#LoadBalancer',
  patchSchema: 'network/2025-05-01/network.json#TagsObject',
  check(request, context) {
    const frontends = frontendsOf(request.body.properties);
    const max = context.limits.network.frontendIpConfigurationsPerLoadBalancer;
    if (frontends.length > max) throw quotaExceeded(`A load balancer can have at most ${max} frontend IP configurations; got ${frontends.length}.`);
    const rules = ((request.body.properties.loadBalancingRules as unknown[] | undefined) ?? []).length;
    const maxRules = context.limits.network.loadBalancingRulesPerLoadBalancer;
    if (rules > maxRules) throw quotaExceeded(`A load balancer can have at most ${maxRules} load balancing rules; got ${rules}.`);
    const names = new Set<string>();
    for (const frontend of frontends) {
      const name = String(frontend.name ?? '').toLowerCase();
      if (names.has(name)) throw new ArmError(400, 'InvalidRequestFormat', `Frontend IP configuration name '${String(frontend.name)}' is used twice.`);
      names.add(name);
      checkPublicIp(frontend, request, context);
      checkStaticAddress(frontend, request, context);
    }
    checkFrontendsStillUsed(request, names, context);
  },
  prepare(record, _request, context) {
    newResourceGuid(record);
    for (const [member, type] of SUB_RESOURCES) identifySubResources(record, member, type);
    assignAddresses(record, context);
  },
  render(record) {
    return {
      resourceGuid: record.internal.resourceGuid,
      frontendIPConfigurations: frontendsOf(record.body.properties).map((frontend) => ({
        ...frontend,
        properties: { ...frontend.properties, provisioningState: 'Succeeded' },
      })),
    };
  },
  checkDelete(record, context) {
    const users = privateLinkServicesByFrontend(context);
    const used = frontendsOf(record.body.properties).find((frontend) => users.has(resourceKey(String(frontend.id))));
    if (used !== undefined) throw inUse(record, used, users.get(resourceKey(String(used.id))) as ResourceRecord);
  },
  onRemoved(record, context) {
    for (const address of Object.values(addressesOf(record))) context.addresses.release(address);
    releasePublicIps(record, context);
  },
});

function frontendsOf(properties: Record<string, unknown>): Frontend[] {
  return (properties.frontendIPConfigurations as Frontend[] | undefined) ?? [];
}

function addressesOf(record: ResourceRecord): Record<string, string> {
  record.internal.privateAddresses ??= {};
  return record.internal.privateAddresses as Record<string, string>;
}

function checkPublicIp(frontend: Frontend, request: WriteRequest, context: EmulatorContext): void {
  const publicIp = (frontend.properties?.publicIPAddress as { id?: unknown } | undefined)?.id;
  if (publicIp === undefined) return;
  const record = typeof publicIp === 'string' ? context.store.get(resourceKey(publicIp)) : undefined;
  if (record?.kindKey !== NETWORK.publicIp) throw invalidReference(publicIp, request.path.names[0] as string);
  const user = record.internal.usedBy;
  if (typeof user === 'string' && !user.startsWith(`${request.key}/`)) {
    throw new ArmError(400, 'PublicIPAddressInUse', `Public IP address ${String(publicIp)} is already used by ${user}.`);
  }
}

function checkStaticAddress(frontend: Frontend, request: WriteRequest, context: EmulatorContext): void {
  const properties = frontend.properties ?? {};
  if (properties.privateIPAllocationMethod !== 'Static' || typeof properties.privateIPAddress !== 'string') return;
  const own = request.existing === undefined ? [] : Object.values(addressesOf(request.existing));
  if (context.addresses.isUsed(properties.privateIPAddress) && !own.includes(properties.privateIPAddress)) {
    throw new ArmError(400, 'PrivateIPAddressInUse', `Private IP address ${properties.privateIPAddress} is already in use.`);
  }
}

function checkFrontendsStillUsed(request: WriteRequest, keptNames: Set<string>, context: EmulatorContext): void {
  if (request.existing === undefined) return;
  const users = privateLinkServicesByFrontend(context);
  for (const frontend of frontendsOf(request.existing.body.properties)) {
    const user = users.get(resourceKey(String(frontend.id)));
    if (user !== undefined && !keptNames.has(String(frontend.name).toLowerCase())) throw inUse(request.existing, frontend, user);
  }
}

function inUse(loadBalancer: ResourceRecord, frontend: Frontend, service: ResourceRecord): ArmError {
  return new ArmError(
    400,
    'InUseFrontendIPConfigurationCannotBeDeleted',
    `Frontend IP configuration '${String(frontend.name)}' of load balancer '${loadBalancer.name}' is used by private link service '${service.id}'.`,
  );
}

function releasePublicIps(record: ResourceRecord, context: EmulatorContext): void {
  for (const pip of context.store.ofKind(NETWORK.publicIp)) {
    if (String(pip.internal.usedBy ?? '').startsWith(`${record.key}/`)) delete pip.internal.usedBy;
  }
}

function assignAddresses(record: ResourceRecord, context: EmulatorContext): void {
  releasePublicIps(record, context);
  const internal: Frontend[] = [];
  for (const frontend of frontendsOf(record.body.properties)) {
    const publicIp = (frontend.properties?.publicIPAddress as { id?: unknown } | undefined)?.id;
    if (typeof publicIp !== 'string') {
      internal.push(frontend);
      continue;
    }
    const pip = context.store.get(resourceKey(publicIp));
    if (pip !== undefined) pip.internal.usedBy = String(frontend.id).toLowerCase();
  }
  record.internal.privateAddresses = assignPrivateAddresses(internal, addressesOf(record), context.addresses);
}
