export { conflictCondition } from './conflict-condition.js';
export { checkFleetCrds, EXTENSION_FIELDS, INTERNAL_SERVICE_EXPORT_CRD, UPSTREAM_CRD_INSTALLER_LABEL } from './fleet-crd-check.js';
export { FLEET_CRDS_CHECK, FleetCrdPrerequisite, type FleetCrdPrerequisiteOptions } from './fleet-crd-prerequisite.js';
export * from './fleet-names.js';
export { checkServedSchema, FLEET_OPENAPI_PATH, type OpenApiDocument } from './served-schema-check.js';
export { ServedSchemaPrerequisite, type ServedSchemaPrerequisiteOptions } from './served-schema-prerequisite.js';
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
