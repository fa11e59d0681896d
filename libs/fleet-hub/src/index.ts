export { conflictCondition } from './conflict-condition.js';
export * from './fleet-names.js';
export {
  EXPORTED_SERVICE_INDEX,
  exportedServiceOf,
  internalServiceExports,
  serviceImports,
  type CachedInternalServiceExport,
  type CachedServiceImport,
} from './fleet-resources.js';
export {
  FLEET_HUB_FIELD_MANAGER,
  registerFleetHubControllers,
  type FleetHubControllerOptions,
  type FleetHubControllers,
} from './register-fleet-hub-controllers.js';
export {
  carriesAfdAnnotations,
  resolveServiceImport,
  type ExportVerdict,
  type ResolvedImportStatus,
  type ServiceImportInputs,
  type ServiceImportPlan,
  type ServiceImportResolution,
} from './resolve-service-import.js';
export { serviceImportReconciler, type ServiceImportReconcilerOptions } from './service-import-reconciler.js';
export { describePorts, samePorts, type ServicePort } from './service-ports.js';
