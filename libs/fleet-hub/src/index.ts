export { conflictCondition } from './conflict-condition.js';
export * from './fleet-names.js';
export {
  carriesAfdAnnotations,
  resolveServiceImport,
  type ExportVerdict,
  type ResolvedImportStatus,
  type ServiceImportInputs,
  type ServiceImportPlan,
  type ServiceImportResolution,
} from './resolve-service-import.js';
export { describePorts, samePorts, type ServicePort } from './service-ports.js';
