export {
  GATEWAY_CLASS_CRD,
  gatewayClasses,
  gateways,
  httpRoutes,
  listenerSets,
  namespaces,
  referenceGrants,
  type CachedGateway,
  type CachedGatewayClass,
  type CachedHTTPRoute,
  type CachedListenerSet,
  type CachedNamespace,
  type CachedReferenceGrant,
} from './gateway-api-resources.js';
export { accessHint, type AzureIdentityDescription } from './azure-access-hints.js';
export { DEFAULT_DRIFT_CHECK, DRIFT_CHECK_FLOOR_MS, DRIFT_CHECK_READ_SHARE, driftCheckPeriodMs, type DriftCheckPeriod } from './drift-check-period.js';
export { gatewayClassReconciler, type GatewayClassReconcilerOptions } from './gateway-class-reconciler.js';
export { gatewayClassStatus, servedSupportedFeatures, servesSupportedFeatures, type GatewayClassStatus } from './gateway-class-status.js';
export { GATEWAY_FINALIZER } from './gateway-finalizer.js';
export { GATEWAY_STATES, GatewayMetrics, type GatewayState } from './gateway-metrics.js';
export { gatewayReconciler, randomRequestMessage, type AzureFrontDoorAccess, type GatewayReconcilerOptions } from './gateway-reconciler.js';
export {
  AFD_DISABLED_MESSAGE,
  AFD_RECONCILIATION_CONDITION,
  AZURE_DATA_CURRENT_CONDITION,
  describeReport,
  gatewayStatus,
  type ProgrammedState,
} from './gateway-status.js';
export { hubInputsOf, type HubObjects } from './hub-snapshot.js';
export { AZURE_PROGRAMMED_CONDITION } from './route-status.js';
export {
  GATEWAY_FIELD_MANAGER,
  registerGatewayClassController,
  type GatewayClassControllerOptions,
  type GatewayClassControllers,
} from './register-gateway-class-controller.js';
export { AFD_PROFILES_PER_SUBSCRIPTION, profileQuotaVerdict, type ProfileQuotaVerdict } from './profile-quota.js';
export { registerGatewayController, type GatewayControllerOptions, type GatewayControllers } from './register-gateway-controller.js';
export { registerHubControllers, type HubControllerOptions, type HubControllers } from './register-hub-controllers.js';
export { renderSupportedFeatures, SUPPORTED_FEATURES, supportedFeaturesFor, type SupportedFeature } from './supported-features.js';
export { crdBundle, OLDEST_SUPPORTED_RELEASE, releaseAtLeast, type CrdBundle } from './gateway-api-release.js';
export { describeServedGatewayApi, logReleaseChanges, servedGatewayApi, servesKind, type ServedGatewayApi } from './served-gateway-api.js';
