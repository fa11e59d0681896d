import type { InternalServiceExport } from '@fleet-gateway/api-types';
import type { DesiredCondition } from '@fleet-gateway/controller';
import { CONFLICT_CONDITION, CONFLICT_FOUND, NO_CONFLICT_FOUND } from './fleet-names.js';

/**
 * The `Conflict` condition the hub sets on an export, word for word upstream's
 * (pkg/common/condition ConflictedServiceExportConflictCondition / UnconflictedServiceExportConflictCondition): the
 * member copies it onto its ServiceExport, so reason and message are part of the contract.
 */
export function conflictCondition(ise: InternalServiceExport, conflicted: boolean): DesiredCondition {
  const ref = ise.spec?.serviceReference;
  const service = `${ref?.namespace ?? ''}/${ref?.name ?? ''}`;
  return {
    type: CONFLICT_CONDITION,
    status: conflicted ? 'True' : 'False',
    reason: conflicted ? CONFLICT_FOUND : NO_CONFLICT_FOUND,
    message: conflicted ? `service ${service} is in conflict with other exported services` : `service ${service} is exported without conflict`,
    observedGeneration: ise.metadata.generation ?? 0,
  };
}
