import { silentLogger, type Logger } from '@fleet-gateway/controller';
import {
  ORIGIN_FIELD_KEYS,
  type CachedInternalServiceExport,
  type CachedService,
  type OriginDiscovery,
  type OriginDiscoveryContext,
  type OriginFields,
  type OriginObservation,
} from '@fleet-gateway/member-export';
import type { PrivateLinkDiscovery } from './private-link-discovery.js';
import { privateLinkObservation } from './private-link-observation.js';
import type { ServiceFacts } from './service-facts.js';

export interface PrivateLinkOriginDiscoveryOptions {
  readonly discovery: PrivateLinkDiscovery;
  /** The node resource group (AKS's MC_…, the cloud config's resourceGroup): where the cluster's load balancers are. */
  readonly nodeResourceGroup: string;
  /** The internal load balancer's name; default cloud-provider-azure's `kubernetes-internal`. */
  readonly loadBalancerName?: string;
  /** --approve-private-link-connections: approve exactly the Front Door connections carrying the hub's messages. */
  readonly approveConnections: boolean;
  /** Asked before each approval (Manager.leaseFence): a replica whose leader Lease is not valid approves nothing. */
  readonly writeFence?: () => string | undefined;
  readonly logger?: Logger;
}

/**
 * The member-export seam for internal load balancer Services: the Service's facts and the hub's request messages go
 * to PrivateLinkDiscovery (and, when this agent approves, to its approval), and the outcome comes back as an
 * observation for resolveServiceExport.
 */
export class PrivateLinkOriginDiscovery implements OriginDiscovery {
  private readonly logger: Logger;

  constructor(private readonly options: PrivateLinkOriginDiscoveryOptions) {
    this.logger = options.logger ?? silentLogger();
  }

  async observe(service: CachedService, context: OriginDiscoveryContext): Promise<OriginObservation> {
    const { discovery } = this.options;
    const facts = this.factsOf(service);
    const hubExport = ofThisService(context.hubExport, service);
    const requests = hubExport?.status?.privateLinkRequests ?? [];
    const request = { service: facts, requestMessages: requests.map((r) => r.requestMessage) };
    let result = await discovery.discover(request);
    let approval;
    if (this.options.approveConnections && result.state === 'found' && requests.length > 0) {
      approval = await discovery.approve(result, request.requestMessages, this.options.writeFence);
      for (const name of approval.approved) this.logger.info('approved a private endpoint connection the hub requested', { connection: name, privateLinkService: result.privateLinkService.id });
      // The approvals were recorded in the inventory: the second look reads no Azure list.
      if (approval.approved.length > 0) result = await discovery.discover(request);
    }
    const spec = hubExport?.spec;
    return privateLinkObservation({
      serviceKey: `${facts.namespace}/${facts.name}`,
      hubExportRef: context.hubExportRef,
      result,
      requests,
      ...(approval ? { approval } : {}),
      published: spec ? originFieldsOf(spec) : {},
      ...(spec?.azureObservedTime ? { publishedAt: spec.azureObservedTime } : {}),
      nodeResourceGroup: this.options.nodeResourceGroup,
    });
  }

  forget(namespace: string, name: string): void {
    this.options.discovery.forget(namespace, name);
  }

  private factsOf(service: CachedService): ServiceFacts {
    const ingressIP = service.status?.loadBalancer?.ingress?.find((ingress) => ingress.ip)?.ip;
    return {
      namespace: service.metadata.namespace ?? '',
      name: service.metadata.name,
      ...(ingressIP ? { ingressIP } : {}),
      annotations: service.metadata.annotations ?? {},
      nodeResourceGroup: this.options.nodeResourceGroup,
      ...(this.options.loadBalancerName ? { loadBalancerName: this.options.loadBalancerName } : {}),
    };
  }
}

/** The hub's export when it is this very Service's (an earlier Service of the same name has other messages and data). */
function ofThisService(hubExport: CachedInternalServiceExport | undefined, service: CachedService): CachedInternalServiceExport | undefined {
  return hubExport?.spec?.serviceReference.uid === service.metadata.uid ? hubExport : undefined;
}

function originFieldsOf(spec: NonNullable<CachedInternalServiceExport['spec']>): OriginFields {
  return Object.fromEntries(ORIGIN_FIELD_KEYS.filter((key) => spec[key] !== undefined).map((key) => [key, spec[key]])) as OriginFields;
}
