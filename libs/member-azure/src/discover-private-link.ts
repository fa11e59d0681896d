import { sameId, type ConnectionView, type LoadBalancerView, type PrivateLinkServiceView } from './azure-views.js';
import { PLS_TAGS, unknown, type PrivateLinkTarget, type Unknown } from './service-facts.js';

/** Who the Private Link Service belongs to, by cloud-provider-azure's tags. */
export type PrivateLinkOwnership =
  /** Tagged by cloud-provider-azure for this Service. */
  | 'this-service'
  /** Tagged for another Service on the same frontend (cloud-provider-azure shares a PLS across such Services). */
  | 'shared'
  /** No cloud-provider-azure tags: someone created it by hand on this frontend. */
  | 'unmanaged';

/** The Private Link Service serving a Service, as the hub needs it for an origin. */
export interface DiscoveredPrivateLinkService {
  readonly id: string;
  readonly name: string;
  readonly location: string;
  readonly alias: string;
  /** The internal load balancer frontend the service is on, and its address (the origin's host name). */
  readonly frontendIpConfigurationId: string;
  readonly internalAddress: string;
  readonly ownership: PrivateLinkOwnership;
  /** The owner tag (`<namespace>/<name>`) when the service is shared. */
  readonly ownerService?: string;
}

export interface Found {
  readonly state: 'found';
  readonly privateLinkService: DiscoveredPrivateLinkService;
  /** The connections as the service listing had them (the caller may have fresher ones). */
  readonly connections: readonly ConnectionView[];
}

export function privateLinkServiceName(frontendName: string): string {
  return `pls-${frontendName}`;
}

/**
 * Pure: the load balancer frontend holding the Service's address and the Private Link Service on that frontend, as
 * cloud-provider-azure finds its own (by frontend id, not by name: an existing service keeps its name). An
 * `azure-pls-name` that differs from the service found is a mismatch cloud-provider-azure itself refuses to
 * reconcile, so it is not published.
 */
export function discoverPrivateLink(
  target: PrivateLinkTarget,
  loadBalancers: readonly LoadBalancerView[],
  services: readonly PrivateLinkServiceView[],
): Found | Unknown {
  const where = `resource group ${target.loadBalancerResourceGroup}`;
  const loadBalancer = loadBalancers.find((candidate) => candidate.name.toLowerCase() === target.loadBalancerName.toLowerCase());
  if (loadBalancer === undefined) {
    return unknown('LoadBalancerNotFound', `load balancer ${target.loadBalancerName} not found in ${where} (the cloud provider has not created it yet)`);
  }
  const frontend = loadBalancer.frontends.find((candidate) => candidate.privateIPAddress === target.address);
  if (frontend === undefined) {
    return unknown('FrontendNotFound', `no frontend of load balancer ${target.loadBalancerName} in ${where} holds ${target.address} (not yet)`);
  }
  const expectedName = target.annotatedName ?? privateLinkServiceName(frontend.name);
  const service = services.find((candidate) => candidate.frontendIds.some((id) => sameId(id, frontend.id)));
  if (service === undefined) {
    return unknown(
      'PrivateLinkServiceNotFound',
      `no Private Link Service on frontend ${frontend.name} in resource group ${target.privateLinkServiceResourceGroup} yet (cloud-provider-azure creates ${expectedName})`,
    );
  }
  if (target.annotatedName !== undefined && service.name.toLowerCase() !== target.annotatedName.toLowerCase()) {
    return unknown(
      'PrivateLinkServiceNameMismatch',
      `frontend ${frontend.name} has Private Link Service ${service.name}, not ${target.annotatedName} as azure-pls-name says; cloud-provider-azure does not rename an existing service`,
    );
  }
  if (service.alias === undefined || service.location === '') {
    return unknown(
      'PrivateLinkServiceNotReady',
      `Private Link Service ${service.name} has no alias yet (provisioningState ${service.provisioningState ?? 'unknown'})`,
    );
  }
  const owner = service.tags[PLS_TAGS.ownerService];
  const ownership: PrivateLinkOwnership =
    service.tags[PLS_TAGS.clusterName] === undefined
      ? 'unmanaged'
      : owner === undefined || owner.toLowerCase() === target.serviceKey.toLowerCase()
        ? 'this-service'
        : 'shared';
  return {
    state: 'found',
    privateLinkService: {
      id: service.id,
      name: service.name,
      location: service.location,
      alias: service.alias,
      frontendIpConfigurationId: frontend.id,
      internalAddress: target.address,
      ownership,
      ...(ownership === 'shared' && owner !== undefined ? { ownerService: owner } : {}),
    },
    connections: service.connections,
  };
}
