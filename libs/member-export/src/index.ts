export { CLOUD_DNS_SUFFIXES, ClusterRegion, REGION_LABEL, type ClusterRegionOptions } from './azure-region.js';
export { parseExportWeight, type ExportWeight } from './export-weight.js';
export { HubExportWriter } from './hub-export-writer.js';
export { isInternalLoadBalancer, LoadBalancerOriginDiscovery, type LoadBalancerOriginDiscoveryOptions } from './load-balancer-origin-discovery.js';
export * from './member-names.js';
export {
  exportedServiceOf,
  internalServiceExports,
  serviceExports,
  services,
  type CachedInternalServiceExport,
  type CachedService,
  type CachedServiceExport,
  type ServicePortSpec,
} from './member-resources.js';
export * from './origin-names.js';
export {
  NO_ORIGIN,
  ORIGIN_FIELD_KEYS,
  type OriginCondition,
  type OriginDiscovery,
  type OriginDiscoveryContext,
  type OriginEvent,
  type OriginFields,
  type OriginObservation,
} from './origin-observation.js';
export { ADDRESS_RECHECK_MS, observePublicOrigin, type PublicIpDnsZone, type PublicOriginInputs } from './public-origin.js';
export {
  MEMBER_FIELD_MANAGER,
  registerMemberExportControllers,
  type MemberExportControllerOptions,
  type MemberExportControllers,
} from './register-member-export-controllers.js';
export {
  HUB_WAIT_MS,
  resolveServiceExport,
  type ExportEvent,
  type HubAction,
  type ServiceExportInputs,
  type ServiceExportResolution,
} from './resolve-service-export.js';
export { serviceExportReconciler, type ServiceExportReconcilerOptions } from './service-export-reconciler.js';
