import { crdServesField, type CustomResourceDefinition } from '@fleet-gateway/controller';
import { CONTROLLER_NAME, gatewayClassVerdict, type VerdictCondition } from '@fleet-gateway/model';
import { compareText } from '@fleet-gateway/api-types';
import type { CachedGatewayClass } from './gateway-api-resources.js';
import { SUPPORTED_FEATURES, type SupportedFeature } from './supported-features.js';

export interface GatewayClassStatus {
  readonly conditions: readonly VerdictCondition[];
  /** Only when the installed CRD serves the field (the experimental channel in v1.2.1): the standard one prunes it. */
  readonly supportedFeatures?: readonly { readonly name: string }[];
}

/** Whether the installed GatewayClass CRD keeps `status.supportedFeatures` in the version we write (v1). */
export function servesSupportedFeatures(crd: CustomResourceDefinition | undefined): boolean {
  return crdServesField(crd, 'v1', ['status', 'supportedFeatures']);
}

/**
 * The status this controller owns on a GatewayClass: `Accepted` (with observedGeneration) and, where the CRD serves
 * it, the supported features sorted by name. Undefined for a class of another controller: we never write those.
 */
export function gatewayClassStatus(
  gatewayClass: CachedGatewayClass,
  featuresServed: boolean,
  features: readonly SupportedFeature[] = SUPPORTED_FEATURES,
): GatewayClassStatus | undefined {
  if (gatewayClass.spec.controllerName !== CONTROLLER_NAME) return undefined;
  const { conditions } = gatewayClassVerdict(gatewayClass);
  if (!featuresServed) return { conditions };
  const supportedFeatures = [...new Set(features.map((f) => f.name))].sort(compareText).map((name) => ({ name }));
  return { conditions, supportedFeatures };
}
