export type { AnnotationError, AnnotationResult } from './annotation-error.js';
export { formatAnnotationErrors } from './annotation-error.js';
export type { AnnotationSpec, ConfigOf, KindContract, SpecTable } from './annotation-spec.js';
export {
  annotationContracts,
  gatewayContract,
  httpRouteContract,
  listenerTlsContract,
  RESERVED_PREFIX,
  serviceImportContract,
} from './contract.js';
export type { DeletionPolicyResult, GatewayConfig, ParseGatewayOptions } from './gateway-annotations.js';
export { parseGatewayAnnotations, readDeletionPolicy } from './gateway-annotations.js';
export * from './known-values.js';
export type { ListenerTlsConfig, ServiceImportConfig } from './object-annotations.js';
export {
  parseHTTPRouteAnnotations,
  parseListenerTlsOptions,
  parseServiceImportAnnotations,
} from './object-annotations.js';
export type { AnnotationMap, KeyResult } from './parse-annotations.js';
export { checkAnnotation, parseAnnotations, readAnnotation } from './parse-annotations.js';
export { renderAnnotationTable, renderErrorReasonTable } from './readme-table.js';
export type { WafPolicyId } from './waf-policy-id.js';
export { parseWafPolicyId } from './waf-policy-id.js';
