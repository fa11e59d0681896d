/**
 * Names shared with fleet-networking, spelled as upstream spells them (pkg/common/objectmeta, pkg/common/condition,
 * api/v1beta1 ServiceExportConflict), so that a fleet moved from its hub controllers to this agent keeps working.
 */

/** The hub holds every InternalServiceExport with this finalizer until its cluster is out of the ServiceImport. */
export const INTERNAL_SERVICE_EXPORT_FINALIZER = 'networking.fleet.azure.com/internal-svc-export-cleanup';

export const CONFLICT_CONDITION = 'Conflict';
export const CONFLICT_FOUND = 'ConflictFound';
export const NO_CONFLICT_FOUND = 'NoConflictFound';

/** The only ServiceImport type fleet-networking resolves ("may support headless in the future"). */
export const CLUSTER_SET_IP = 'ClusterSetIP';

/** ServiceImport events, upstream's reasons. */
export const RESOLVED_EVENT_REASON = 'SuccessfulUpdateStatus';
export const NO_EXPORT_EVENT_REASON = 'NoExportedService';
