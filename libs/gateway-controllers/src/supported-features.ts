/**
 * One Gateway API feature (a name from sigs.k8s.io/gateway-api v1.2.1 `pkg/features`) this codebase implements, and
 * the title of the test that exercises its translation. supported-features.test.ts fails when a title is not the
 * title of a test in some `*.test.ts` file, so the list cannot claim more than is tested.
 */
export interface SupportedFeature {
  readonly name: string;
  readonly test: string;
}

/** What GatewayClass `status.supportedFeatures` lists, in ascending order of name as the CRD requires. */
export const SUPPORTED_FEATURES: readonly SupportedFeature[] = [
  {
    name: 'Gateway',
    test: 'plans one profile (SKU from the model, tagged) and one endpoint, origins with weights, a route on the default domain',
  },
  {
    name: 'HTTPRoute',
    test: 'plans one profile (SKU from the model, tagged) and one endpoint, origins with weights, a route on the default domain',
  },
  {
    name: 'HTTPRouteMethodMatching',
    test: 'conditions: method, headers and query parameters, ANDed; the query pattern matches one whole parameter',
  },
  { name: 'HTTPRoutePathRewrite', test: 'ReplaceFullPath replaces any path' },
  {
    name: 'HTTPRouteQueryParamMatching',
    test: 'conditions: method, headers and query parameters, ANDed; the query pattern matches one whole parameter',
  },
  { name: 'HTTPRouteResponseHeaderModification', test: 'a redirect answers at the edge: only response header edits go with it' },
  { name: 'ReferenceGrant', test: 'a revoked ReferenceGrant cuts access (Gateway API semantics, not held)' },
];

/** The list as the README shows it: one feature a line, with the test that exercises it. */
export function renderSupportedFeatures(features: readonly SupportedFeature[] = SUPPORTED_FEATURES): string {
  return features.map((f) => `${f.name.padEnd(38)}${f.test}\n`).join('');
}
