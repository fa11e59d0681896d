import type { CachedService } from './member-resources.js';
import type { OriginCondition, OriginObservation } from './origin-observation.js';
import {
  FRONT_DOOR_ID_HEADER,
  FRONT_DOOR_SERVICE_TAG,
  ORIGIN_PUBLISHED_CONDITION,
  ORIGIN_REASONS,
  ORIGIN_RESTRICTED_CONDITION,
  RESTRICTION_REASONS,
  SERVICE_ANNOTATIONS,
} from './origin-names.js';

/** Where the public IP's DNS name lives: `<label>.<region>.<dnsZoneSuffix>`. */
export interface PublicIpDnsZone {
  /** The cluster's Azure region, or undefined when it cannot be known (then `unknownBecause` says why). */
  readonly region: string | undefined;
  readonly unknownBecause?: string;
  /** The cloud's public IP DNS suffix (CLOUD_DNS_SUFFIXES). */
  readonly dnsZoneSuffix: string;
}

export interface PublicOriginInputs {
  readonly service: CachedService;
  readonly zone: PublicIpDnsZone;
  /** The frontDoorIds the hub published on the InternalServiceExport status (`status.frontDoors[].frontDoorID`). */
  readonly frontDoorIds: readonly string[];
  /** `<hub namespace>/<name>` of the InternalServiceExport, for messages. */
  readonly hubExport: string;
}

/** How soon a Service waiting for its load balancer address is looked at again (its status update also brings it back). */
export const ADDRESS_RECHECK_MS = 15_000;

/**
 * The origin of a public LoadBalancer Service, from the Service alone (no Azure call): the address in
 * `status.loadBalancer.ingress`, or with `service.beta.kubernetes.io/azure-dns-label-name` the public IP's FQDN.
 * cloud-provider-azure puts the annotation's value unchanged on the public IP as `dnsSettings.domainNameLabel`
 * (pkg/provider/azure_loadbalancer.go getPublicIPDomainNameLabel, reconcileDNSSettings) and sets no
 * domainNameLabelScope, so Azure names it `<label>.<region>.<ResourceManagerVMDNSSuffix>` (pkg/azclient/cloud.go);
 * an empty value removes the label. Plus whether its load balancer lets only Front Door in.
 */
export function observePublicOrigin(inputs: PublicOriginInputs): OriginObservation {
  const { service } = inputs;
  const ref = `${service.metadata.namespace}/${service.metadata.name}`;
  const ingress = service.status?.loadBalancer?.ingress?.[0];
  const address = ingress?.ip || ingress?.hostname;
  const restriction = restrictionCondition(inputs);
  if (!address) {
    return {
      fields: {},
      conditions: [
        {
          type: ORIGIN_PUBLISHED_CONDITION,
          status: 'False',
          reason: ORIGIN_REASONS.addressPending,
          message: `Service ${ref} has no load balancer address yet (status.loadBalancer.ingress is empty): waiting for the cloud provider; InternalServiceExport ${inputs.hubExport} carries no public address until then`,
        },
        restriction,
      ],
      recheck: { afterMs: ADDRESS_RECHECK_MS, reason: `Service ${ref} has no load balancer address yet` },
    };
  }
  const label = service.metadata.annotations?.[SERVICE_ANNOTATIONS.dnsLabelName];
  const { region, unknownBecause, dnsZoneSuffix } = inputs.zone;
  let publicAddress = address;
  let detail = `the load balancer address ${address}`;
  if (label) {
    if (region) {
      publicAddress = `${label}.${region}.${dnsZoneSuffix}`.toLowerCase();
      detail = `${publicAddress} (DNS label ${label} of the public IP ${address})`;
    } else {
      detail = `the load balancer address ${address}; the FQDN of DNS label ${label} is not known because this cluster's Azure region is not (${unknownBecause ?? 'no region was found'})`;
    }
  }
  const published: OriginCondition = {
    type: ORIGIN_PUBLISHED_CONDITION,
    status: 'True',
    reason: ORIGIN_REASONS.published,
    message: `published ${detail} as the public address of InternalServiceExport ${inputs.hubExport}`,
  };
  return { fields: { publicAddress }, conditions: [published, restriction] };
}

/**
 * cloud-provider-azure opens the load balancer's security rules to the union of the allowed service tags
 * (comma-separated, trimmed: pkg/provider/loadbalancer/configuration.go AllowedServiceTags) and the allowed IP
 * ranges, and to the Internet when none is given. Only `AzureFrontDoor.Backend` alone keeps clients from going
 * around Front Door; and since that tag covers every Front Door profile, the backend must check `X-Azure-FDID` too.
 */
function restrictionCondition(inputs: PublicOriginInputs): OriginCondition {
  const { service } = inputs;
  const ref = `${service.metadata.namespace}/${service.metadata.name}`;
  const annotations = service.metadata.annotations ?? {};
  const tags = commaList(annotations[SERVICE_ANNOTATIONS.allowedServiceTags]);
  const ranges = [
    ...(service.spec?.loadBalancerSourceRanges ?? []),
    ...commaList(annotations[SERVICE_ANNOTATIONS.allowedIpRanges]),
    ...commaList(annotations[SERVICE_ANNOTATIONS.loadBalancerSourceRanges]),
  ];
  const others = [...tags.filter((tag) => tag !== FRONT_DOOR_SERVICE_TAG).map((tag) => `service tag ${tag}`), ...ranges.map((range) => `IP range ${range}`)];
  const fdid = frontDoorIdAdvice(inputs);
  if (tags.includes(FRONT_DOOR_SERVICE_TAG) && others.length === 0) {
    return {
      type: ORIGIN_RESTRICTED_CONDITION,
      status: 'True',
      reason: RESTRICTION_REASONS.restricted,
      message: `the load balancer of Service ${ref} admits only ${FRONT_DOOR_SERVICE_TAG}; that tag covers every Front Door profile, so ${fdid}`,
    };
  }
  const admits = others.length === 0 && tags.length === 0 ? 'the whole Internet (no allowed service tags or IP ranges)' : others.join(', ');
  return {
    type: ORIGIN_RESTRICTED_CONDITION,
    status: 'False',
    reason: RESTRICTION_REASONS.notRestricted,
    message: `the public load balancer of Service ${ref} admits ${admits}, so clients can bypass Front Door and its WAF: set the annotation ${SERVICE_ANNOTATIONS.allowedServiceTags}: ${FRONT_DOOR_SERVICE_TAG} (and no other tags or IP ranges), and ${fdid}`,
  };
}

function frontDoorIdAdvice({ frontDoorIds, hubExport }: PublicOriginInputs): string {
  if (frontDoorIds.length === 0) {
    return `the backend should also reject requests whose ${FRONT_DOOR_ID_HEADER} header is not the frontDoorId the hub publishes in InternalServiceExport ${hubExport} status.frontDoors once a Gateway uses this export (none does yet)`;
  }
  const ids = frontDoorIds.length === 1 ? frontDoorIds[0]! : `one of ${frontDoorIds.join(', ')}`;
  return `the backend should also reject requests whose ${FRONT_DOOR_ID_HEADER} header is not ${ids} (status.frontDoors of InternalServiceExport ${hubExport})`;
}

function commaList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
