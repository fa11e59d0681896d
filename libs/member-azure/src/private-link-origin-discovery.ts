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
import { hubRequestOf } from './plan-approvals.js';
import type { PrivateLinkDiscovery } from './private-link-discovery.js';
import type { PrivateLinkApprovalMetrics } from './approval-metrics.js';
import { PRIVATE_LINK_EVENT_REASONS, privateLinkObservation } from './private-link-observation.js';
import type { ServiceFacts } from './service-facts.js';

export interface PrivateLinkOriginDiscoveryOptions {
  readonly discovery: PrivateLinkDiscovery;
  /** The node resource group (AKS's MC_…, the cloud config's resourceGroup): where the cluster's load balancers are. */
  readonly nodeResourceGroup: string;
  /** The internal load balancer's name; default cloud-provider-azure's `kubernetes-internal`. */
  readonly loadBalancerName?: string;
  /** --approve-private-link-connections: approve exactly the Front Door connections carrying the hub's messages. */
  readonly approveConnections: boolean;
  /** --private-link-approval-hubs: when set, only messages of these hub identities are honoured. */
  readonly approvalHubs?: readonly string[];
  /** Where the possible impersonations are counted (the agent's /metrics). */
  readonly metrics?: PrivateLinkApprovalMetrics;
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
    const request = { service: facts, requests: requests.map(hubRequestOf) };
    const policy = this.options.approvalHubs ? { allowedHubs: this.options.approvalHubs } : {};
    let result = await discovery.discover(request);
    let approval;
    if (this.options.approveConnections && result.state === 'found' && requests.length > 0) {
      approval = await discovery.approve(result, request.requests, policy, this.options.writeFence);
      for (const name of approval.approved)
        this.logger.info('approved a private endpoint connection the hub requested', { connection: name, privateLinkService: result.privateLinkService.id });
      // The approvals were recorded in the inventory: the second look reads no Azure list.
      if (approval.approved.length > 0) result = await discovery.discover(request);
    }
    const spec = hubExport?.spec;
    const observation = privateLinkObservation({
      serviceKey: `${facts.namespace}/${facts.name}`,
      hubExportRef: context.hubExportRef,
      result,
      requests,
      policy,
      ...(approval ? { approval } : {}),
      published: spec ? originFieldsOf(spec) : {},
      ...(spec?.azureObservedTime ? { publishedAt: spec.azureObservedTime } : {}),
      nodeResourceGroup: this.options.nodeResourceGroup,
    });
    this.options.metrics?.record(
      `${facts.namespace}/${facts.name}`,
      (observation.events ?? []).filter((e) => e.reason === PRIVATE_LINK_EVENT_REASONS.possibleImpersonation).length,
    );
    return observation;
  }

  forget(namespace: string, name: string): void {
    this.options.discovery.forget(namespace, name);
    this.options.metrics?.forget(`${namespace}/${name}`);
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
