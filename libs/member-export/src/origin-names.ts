/**
 * Names of this project's extension on the ServiceExport (conditions beside upstream's `Valid` and `Conflict`) and the
 * cloud-provider-azure Service annotations it reads (sigs.k8s.io/cloud-provider-azure pkg/consts/consts.go).
 */

/** Whether the origin the hub needs (an address Front Door can reach) is published on the InternalServiceExport. */
export const ORIGIN_PUBLISHED_CONDITION = 'networking.fleet.azure.com/OriginPublished';
/** A public origin's load balancer only lets Front Door in; `False` is the warning. */
export const ORIGIN_RESTRICTED_CONDITION = 'networking.fleet.azure.com/OriginRestrictedToFrontDoor';

/** A Private Link origin's Azure data is fresh; `False` while a read fails and the last values stand, marked stale. */
export const AZURE_DATA_CURRENT_CONDITION = 'networking.fleet.azure.com/AzureDataCurrent';
/** Every Front Door connection the hub asked for on this export (one request message per Gateway) is approved. */
export const CONNECTIONS_APPROVED_CONDITION = 'networking.fleet.azure.com/PrivateLinkConnectionsApproved';
/** Every condition origin discovery may set: kept as they are while the export itself is held (an invalid weight). */
export const ORIGIN_CONDITION_TYPES = [
  ORIGIN_PUBLISHED_CONDITION,
  ORIGIN_RESTRICTED_CONDITION,
  AZURE_DATA_CURRENT_CONDITION,
  CONNECTIONS_APPROVED_CONDITION,
] as const;

/** `OriginPublished` reasons. */
export const ORIGIN_REASONS = {
  published: 'PublicAddressPublished',
  addressPending: 'LoadBalancerAddressPending',
  noLoadBalancer: 'NotALoadBalancer',
  privateLinkDiscoveryOff: 'PrivateLinkDiscoveryDisabled',
} as const;

/** `OriginRestrictedToFrontDoor` reasons. */
export const RESTRICTION_REASONS = {
  restricted: 'RestrictedToFrontDoor',
  notRestricted: 'NotRestrictedToFrontDoor',
} as const;

export const ORIGIN_EVENT_REASONS = {
  notRestricted: 'OriginNotRestrictedToFrontDoor',
  published: 'PublicAddressPublished',
} as const;

export const SERVICE_ANNOTATIONS = {
  internal: 'service.beta.kubernetes.io/azure-load-balancer-internal',
  dnsLabelName: 'service.beta.kubernetes.io/azure-dns-label-name',
  allowedServiceTags: 'service.beta.kubernetes.io/azure-allowed-service-tags',
  allowedIpRanges: 'service.beta.kubernetes.io/azure-allowed-ip-ranges',
  /** Kubernetes' own (v1.AnnotationLoadBalancerSourceRangesKey), which cloud-provider-azure also honours. */
  loadBalancerSourceRanges: 'service.beta.kubernetes.io/load-balancer-source-ranges',
} as const;

/** The Azure service tag of Front Door's back end (the addresses it connects to origins from). */
export const FRONT_DOOR_SERVICE_TAG = 'AzureFrontDoor.Backend';

/** The header in which Front Door sends its profile's frontDoorId to origins. */
export const FRONT_DOOR_ID_HEADER = 'X-Azure-FDID';
