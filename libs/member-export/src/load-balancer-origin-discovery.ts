import type { CachedService } from './member-resources.js';
import { NO_ORIGIN, type OriginDiscovery, type OriginDiscoveryContext, type OriginObservation } from './origin-observation.js';
import { ORIGIN_PUBLISHED_CONDITION, ORIGIN_REASONS, SERVICE_ANNOTATIONS } from './origin-names.js';
import { observePublicOrigin, type PublicIpDnsZone } from './public-origin.js';

export interface LoadBalancerOriginDiscoveryOptions {
  readonly zone: { zone(signal?: AbortSignal): Promise<PublicIpDnsZone> };
  /** Discovery for internal load balancer Services (Private Link); without it they publish no origin and say so. */
  readonly privateLink?: OriginDiscovery;
}

/**
 * Picks the discovery for a Service: public LoadBalancer Services are answered from the Service itself, internal
 * ones by the Private Link discovery when there is one, other Service types have no origin Front Door could reach.
 * An internal load balancer never falls back to a public origin.
 */
export class LoadBalancerOriginDiscovery implements OriginDiscovery {
  constructor(private readonly options: LoadBalancerOriginDiscoveryOptions) {}

  async observe(service: CachedService, context: OriginDiscoveryContext): Promise<OriginObservation> {
    if (service.spec?.type !== 'LoadBalancer') return NO_ORIGIN;
    if (isInternalLoadBalancer(service)) {
      if (this.options.privateLink) return this.options.privateLink.observe(service, context);
      return {
        fields: {},
        conditions: [
          {
            type: ORIGIN_PUBLISHED_CONDITION,
            status: 'Unknown',
            reason: ORIGIN_REASONS.privateLinkDiscoveryOff,
            message: `Service ${service.metadata.namespace}/${service.metadata.name} is an internal load balancer and Private Link origin discovery is not enabled on this member agent, so InternalServiceExport ${context.hubExportRef} carries no origin for it`,
          },
        ],
      };
    }
    const frontDoorIds = [...new Set((context.hubExport?.status?.frontDoors ?? []).map((f) => f.frontDoorID))].sort();
    return observePublicOrigin({ service, zone: await this.options.zone.zone(context.signal), frontDoorIds, hubExport: context.hubExportRef });
  }

  forget(namespace: string, name: string): void {
    this.options.privateLink?.forget?.(namespace, name);
  }
}

/**
 * cloud-provider-azure builds an internal load balancer when the annotation is "true" in any case
 * (pkg/provider/loadbalancer/configuration.go IsInternal: strings.ToLower). fleet-networking compares it
 * case-sensitively; reading "True" as public would publish a private address as a public origin, so this follows
 * the cloud provider.
 */
export function isInternalLoadBalancer(service: CachedService): boolean {
  return service.metadata.annotations?.[SERVICE_ANNOTATIONS.internal]?.toLowerCase() === 'true';
}
