/** cloud-provider-azure's Service annotations this library reads (its `pkg/consts`). */
export const SERVICE_ANNOTATIONS = {
  internal: 'service.beta.kubernetes.io/azure-load-balancer-internal',
  plsCreate: 'service.beta.kubernetes.io/azure-pls-create',
  plsName: 'service.beta.kubernetes.io/azure-pls-name',
  plsResourceGroup: 'service.beta.kubernetes.io/azure-pls-resource-group',
} as const;

/** cloud-provider-azure's tag keys on the Private Link Services it creates (`pkg/consts`). */
export const PLS_TAGS = {
  clusterName: 'k8s-azure-cluster-name',
  ownerService: 'k8s-azure-owner-service',
} as const;

/** AKS's internal load balancer: cloud-provider-azure's `<cluster name>-internal`, the cluster name being `kubernetes`. */
export const DEFAULT_INTERNAL_LOAD_BALANCER = 'kubernetes-internal';

/** What the member knows about a Service from Kubernetes alone: enough to find its Azure side. */
export interface ServiceFacts {
  readonly namespace: string;
  readonly name: string;
  /** `status.loadBalancer.ingress[0].ip`, once the cloud provider has set it. */
  readonly ingressIP?: string;
  readonly annotations: Readonly<Record<string, string>>;
  /** The node resource group (MC_…): where AKS puts the load balancers and, by default, the Private Link Services. */
  readonly nodeResourceGroup: string;
  /** Default `kubernetes-internal`. */
  readonly loadBalancerName?: string;
}

/** Where the Azure side of a Private Link Service-backed Service is to be found. */
export interface PrivateLinkTarget {
  /** `<namespace>/<name>`, as cloud-provider-azure's owner tag spells it. */
  readonly serviceKey: string;
  readonly address: string;
  readonly loadBalancerResourceGroup: string;
  readonly loadBalancerName: string;
  readonly privateLinkServiceResourceGroup: string;
  /** `azure-pls-name` when set; otherwise cloud-provider-azure names the service `pls-<frontend name>`. */
  readonly annotatedName?: string;
}

/** Why there is no Private Link Service to publish (yet). Never a reason to publish the Service as public. */
export type UnknownReason =
  | 'NotInternal'
  | 'PrivateLinkNotRequested'
  | 'AddressPending'
  | 'LoadBalancerNotFound'
  | 'FrontendNotFound'
  | 'PrivateLinkServiceNotFound'
  | 'PrivateLinkServiceNameMismatch'
  | 'PrivateLinkServiceNotReady'
  | 'AzureReadFailed';

export interface Unknown {
  readonly state: 'unknown';
  readonly reason: UnknownReason;
  /** One line saying what is missing and what makes it appear. */
  readonly message: string;
}

const isTrue = (value: string | undefined): boolean => value?.trim().toLowerCase() === 'true';
const annotation = (facts: ServiceFacts, key: string): string | undefined => facts.annotations[key]?.trim() || undefined;

/** Pure: where to look for the Service's Private Link Service, or why there is nothing to look for (no Azure call). */
export function privateLinkTargetOf(facts: ServiceFacts): PrivateLinkTarget | Unknown {
  const serviceKey = `${facts.namespace}/${facts.name}`;
  if (!isTrue(facts.annotations[SERVICE_ANNOTATIONS.internal])) {
    return unknown(
      'NotInternal',
      `Service ${serviceKey} is not an internal load balancer Service (${SERVICE_ANNOTATIONS.internal}: "true"), so it has no Private Link Service`,
    );
  }
  if (!isTrue(facts.annotations[SERVICE_ANNOTATIONS.plsCreate])) {
    return unknown('PrivateLinkNotRequested', `Service ${serviceKey} does not ask for a Private Link Service (${SERVICE_ANNOTATIONS.plsCreate}: "true")`);
  }
  const address = facts.ingressIP?.trim();
  if (!address) return unknown('AddressPending', `Service ${serviceKey} has no load balancer address yet (status.loadBalancer.ingress)`);
  const annotatedName = annotation(facts, SERVICE_ANNOTATIONS.plsName);
  return {
    serviceKey,
    address,
    loadBalancerResourceGroup: facts.nodeResourceGroup,
    loadBalancerName: facts.loadBalancerName ?? DEFAULT_INTERNAL_LOAD_BALANCER,
    privateLinkServiceResourceGroup: annotation(facts, SERVICE_ANNOTATIONS.plsResourceGroup) ?? facts.nodeResourceGroup,
    ...(annotatedName === undefined ? {} : { annotatedName }),
  };
}

export function unknown(reason: UnknownReason, message: string): Unknown {
  return { state: 'unknown', reason, message };
}

export function isUnknown(value: object): value is Unknown {
  return (value as { state?: unknown }).state === 'unknown';
}
