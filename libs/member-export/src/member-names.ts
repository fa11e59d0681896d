/**
 * Names shared with fleet-networking's member agent, spelled as upstream spells them
 * (pkg/controllers/member/serviceexport/controller.go, pkg/common/objectmeta, pkg/common/metrics, api/v1beta1), so a
 * member moved from fleet-networking's member-net-controller-manager to this agent keeps its ServiceExports as they are.
 */

/** Held on a ServiceExport from just before its InternalServiceExport is created until it has been deleted again. */
export const SERVICE_EXPORT_FINALIZER = 'networking.fleet.azure.com/svc-export-cleanup';

/** The ServiceExport annotation with this cluster's weight within the ServiceImport: an integer 0..1000, default 1. */
export const WEIGHT_ANNOTATION = 'networking.fleet.azure.com/weight';
export const DEFAULT_WEIGHT = 1;
export const MAX_WEIGHT = 1000;

/** Upstream's metric annotations: the Service resourceVersion last exported and when (RFC 3339, seconds). */
export const LAST_SEEN_RESOURCE_VERSION_ANNOTATION = 'networking.fleet.azure.com/last-seen-resource-version';
export const LAST_SEEN_TIMESTAMP_ANNOTATION = 'networking.fleet.azure.com/last-seen-timestamp';

export const VALID_CONDITION = 'Valid';
export const CONFLICT_CONDITION = 'Conflict';

/** `Valid` reasons. */
export const SERVICE_IS_VALID = 'ServiceIsValid';
export const SERVICE_NOT_FOUND = 'ServiceNotFound';
export const SERVICE_INELIGIBLE = 'ServiceIneligible';
export const INVALID_WEIGHT_ANNOTATION = 'ServiceExportInvalidWeightAnnotation';

/** The `Conflict` reason until the hub has decided. */
export const PENDING_CONFLICT_RESOLUTION = 'ServicePendingConflictResolution';

/** Upstream's event reasons. */
export const EVENT_REASONS = {
  serviceNotFound: 'ServiceNotFound',
  serviceNotEligible: 'ServiceNotEligible',
  invalidWeight: 'ServiceExportInvalidWeightAnnotation',
  zeroWeight: 'Service',
  valid: 'ValidServiceExport',
  pendingConflictResolution: 'PendingExportConflictResolution',
  conflictFound: 'ServiceExportConflictFound',
  noConflictFound: 'NoServiceExportConflictFound',
} as const;

/** The hub namespace of a member cluster (hubconfig.HubNamespaceNameFormat). */
export function hubNamespaceOf(memberCluster: string): string {
  return `fleet-member-${memberCluster}`;
}

/** The InternalServiceExport name of an exported Service (formatInternalServiceExportName). */
export function internalServiceExportName(namespace: string, name: string): string {
  return `${namespace}-${name}`;
}
