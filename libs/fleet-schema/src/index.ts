// The Fleet CRD prerequisites both agents check before they write: the hub reads the installed InternalServiceExport
// CRD, a member (which may not read CRDs on the hub) the hub's published OpenAPI schema; either must serve every
// extension field, or the agent writes nothing and says what is installed and how to fix it.
export { checkFleetCrds, EXTENSION_FIELDS, INTERNAL_SERVICE_EXPORT_CRD, UPSTREAM_CRD_INSTALLER_LABEL } from './fleet-crd-check.js';
export { FLEET_CRDS_CHECK, FleetCrdPrerequisite, type FleetCrdPrerequisiteOptions } from './fleet-crd-prerequisite.js';
export { checkServedSchema, FLEET_OPENAPI_PATH, type OpenApiDocument } from './served-schema-check.js';
export { ServedSchemaPrerequisite, type ServedSchemaPrerequisiteOptions } from './served-schema-prerequisite.js';
