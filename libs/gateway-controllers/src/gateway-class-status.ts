import { crdServesField, type CustomResourceDefinition } from '@fleet-gateway/controller';
import { CONTROLLER_NAME, gatewayClassVerdict, type VerdictCondition } from '@fleet-gateway/model';
import { compareText } from '@fleet-gateway/api-types';
import type { CachedGatewayClass } from './gateway-api-resources.js';
import { crdBundle } from './gateway-api-release.js';
import { SUPPORTED_FEATURES, supportedFeaturesFor, type SupportedFeature } from './supported-features.js';

export interface GatewayClassStatus {
  readonly conditions: readonly VerdictCondition[];
  /**
   * Only when the installed CRD serves the field (standard from v1.4; experimental before): the standard v1.2 and
   * v1.3 ones prune it.
   */
  readonly supportedFeatures?: readonly { readonly name: string }[];
}

/**
 * Whether the installed GatewayClass CRD keeps `status.supportedFeatures` in the version we write (v1), in the shape
 * we write: a list of objects keyed by `name` (every release from v1.2 on; v1.1's experimental list of strings is not).
 */
export function servesSupportedFeatures(crd: CustomResourceDefinition | undefined): boolean {
  return crdServesField(crd, 'v1', ['status', 'supportedFeatures', 'name']);
}

/** The features to list on a hub whose GatewayClass CRD is `crd`: those its release defines (see crdBundle). */
export function servedSupportedFeatures(
  crd: CustomResourceDefinition | undefined,
  features: readonly SupportedFeature[] = SUPPORTED_FEATURES,
): readonly SupportedFeature[] {
  return supportedFeaturesFor(crdBundle(crd).release, features);
}

/**
 * The status this controller owns on a GatewayClass: `Accepted` (with observedGeneration) and, where the CRD serves
 * it, the supported features sorted by name. Undefined for a class of another controller: we never write those.
 */
export function gatewayClassStatus(
  gatewayClass: CachedGatewayClass,
  featuresServed: boolean,
  features: readonly SupportedFeature[],
): GatewayClassStatus | undefined {
  if (gatewayClass.spec.controllerName !== CONTROLLER_NAME) return undefined;
  const { conditions } = gatewayClassVerdict(gatewayClass);
  if (!featuresServed) return { conditions };
  const supportedFeatures = [...new Set(features.map((f) => f.name))].sort(compareText).map((name) => ({ name }));
  return { conditions, supportedFeatures };
}
