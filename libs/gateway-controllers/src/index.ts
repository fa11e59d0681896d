export { GATEWAY_CLASS_CRD, gatewayClasses, type CachedGatewayClass } from './gateway-api-resources.js';
export { gatewayClassReconciler, type GatewayClassReconcilerOptions } from './gateway-class-reconciler.js';
export { gatewayClassStatus, servesSupportedFeatures, type GatewayClassStatus } from './gateway-class-status.js';
export {
  GATEWAY_FIELD_MANAGER,
  registerGatewayClassController,
  type GatewayClassControllerOptions,
  type GatewayClassControllers,
} from './register-gateway-class-controller.js';
export { renderSupportedFeatures, SUPPORTED_FEATURES, type SupportedFeature } from './supported-features.js';
