import { randomUUID } from 'node:crypto';
import { ArmError } from '../arm/errors.js';
import type { ResourceKind } from '../arm/kind.js';
import { resourceKey } from '../arm/resource-id.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { AddressPool } from './address-pool.js';

/**
 * 2025-05-01 is the vendored spec; 2026-01-01 is the version @azure/arm-network 39 sends (fixed in the generated
 * client, not configurable), served with the same schemas (ledger A57).
 */
export const NETWORK_API_VERSIONS = ['2025-05-01', '2026-01-01'] as const;

export const NETWORK = {
  loadBalancer: 'microsoft.network/loadbalancers',
  publicIp: 'microsoft.network/publicipaddresses',
  privateLinkService: 'microsoft.network/privatelinkservices',
  privateEndpointConnection: 'microsoft.network/privatelinkservices/privateendpointconnections',
} as const;

type NetworkKindSpec = Pick<ResourceKind, 'types'> & Partial<ResourceKind>;

/** A tracked Microsoft.Network resource: PUT and DELETE long-running, as the 2025-05-01 specs define them. */
export function networkKind(spec: NetworkKindSpec): ResourceKind {
  return {
    provider: 'Microsoft.Network',
    apiVersions: NETWORK_API_VERSIONS,
    tracked: true,
    lro: { put: true, patch: false, delete: true },
    deletable: true,
    ...spec,
  };
}

export function invalidReference(id: unknown, owner: string): ArmError {
  return new ArmError(400, 'InvalidResourceReference', `Resource ${String(id)} referenced by resource ${owner} was not found.`);
}

export function quotaExceeded(message: string): ArmError {
  return new ArmError(400, 'QuotaExceeded', message);
}

/** Gives each named sub-resource in an array (frontend IP configurations, pools, rules...) its id, etag and type. */
export function identifySubResources(record: ResourceRecord, member: string, type: string): Array<Record<string, unknown>> {
  const items = (record.body.properties[member] as Array<Record<string, unknown>> | undefined) ?? [];
  for (const item of items) {
    item.id = `${record.id}/${member}/${String(item.name)}`;
    item.etag = record.etag;
    item.type = type;
  }
  return items;
}

/** Finds a load balancer frontend IP configuration by its id: `<lb id>/frontendIPConfigurations/<name>`. */
export function findFrontend(id: unknown, context: EmulatorContext): { loadBalancer: ResourceRecord; frontend: Record<string, unknown> } | undefined {
  if (typeof id !== 'string') return undefined;
  const key = resourceKey(id);
  const marker = '/frontendipconfigurations/';
  const at = key.lastIndexOf(marker);
  if (at === -1) return undefined;
  const loadBalancer = context.store.get(key.slice(0, at));
  if (loadBalancer?.kindKey !== NETWORK.loadBalancer) return undefined;
  const name = key.slice(at + marker.length);
  const frontends = (loadBalancer.body.properties.frontendIPConfigurations as Array<Record<string, unknown>> | undefined) ?? [];
  const frontend = frontends.find((candidate) => String(candidate.name).toLowerCase() === name);
  return frontend === undefined ? undefined : { loadBalancer, frontend };
}

export function newResourceGuid(record: ResourceRecord): string {
  record.internal.resourceGuid ??= randomUUID();
  return String(record.internal.resourceGuid);
}

/** The Private Link Services that use any frontend of a load balancer, by frontend key. */
export function privateLinkServicesByFrontend(context: EmulatorContext): Map<string, ResourceRecord> {
  const result = new Map<string, ResourceRecord>();
  for (const service of context.store.ofKind(NETWORK.privateLinkService)) {
    const frontends = (service.body.properties.loadBalancerFrontendIpConfigurations as Array<{ id?: unknown }> | undefined) ?? [];
    for (const frontend of frontends) if (typeof frontend.id === 'string') result.set(resourceKey(frontend.id), service);
  }
  return result;
}

export type IpConfiguration = Record<string, unknown> & { name?: unknown; properties?: Record<string, unknown> };

/**
 * Gives each IP configuration a private address — its static one, the one it had before, or a new one — and frees
 * the addresses of configurations that are gone. Returns the new name -> address map to keep.
 */
export function assignPrivateAddresses(configurations: IpConfiguration[], previous: Record<string, string>, pool: AddressPool): Record<string, string> {
  const next: Record<string, string> = {};
  for (const configuration of configurations) {
    const properties = (configuration.properties ??= {});
    const name = String(configuration.name).toLowerCase();
    const wanted = properties.privateIPAllocationMethod === 'Static' ? properties.privateIPAddress : undefined;
    const address = typeof wanted === 'string' ? wanted : (previous[name] ?? pool.allocatePrivate());
    pool.claim(address);
    next[name] = address;
    properties.privateIPAddress = address;
    properties.privateIPAllocationMethod ??= 'Dynamic';
    properties.privateIPAddressVersion ??= 'IPv4';
  }
  const kept = new Set(Object.values(next));
  for (const address of Object.values(previous)) if (!kept.has(address)) pool.release(address);
  return next;
}
