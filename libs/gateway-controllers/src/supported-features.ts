import { OLDEST_SUPPORTED_RELEASE, releaseAtLeast } from './gateway-api-release.js';

/**
 * One Gateway API feature (a name from sigs.k8s.io/gateway-api `pkg/features`) this codebase implements, the oldest
 * supported release whose `pkg/features` defines the name, and the title of the test that exercises its translation.
 * supported-features.test.ts fails when a title is not the title of a test in some `*.test.ts` file, so the list
 * cannot claim more than is tested, and when `since` is not the first release of the matrix that defines the name.
 */
export interface SupportedFeature {
  readonly name: string;
  readonly since: string;
  readonly test: string;
}

/** What GatewayClass `status.supportedFeatures` lists, in ascending order of name as the CRD requires. */
export const SUPPORTED_FEATURES: readonly SupportedFeature[] = [
  {
    name: 'Gateway',
    since: OLDEST_SUPPORTED_RELEASE,
    test: 'plans one profile (SKU from the model, tagged) and one endpoint, origins with weights, a route on the default domain',
  },
  {
    name: 'HTTPRoute',
    since: OLDEST_SUPPORTED_RELEASE,
    test: 'plans one profile (SKU from the model, tagged) and one endpoint, origins with weights, a route on the default domain',
  },
  {
    name: 'HTTPRoute307RedirectStatusCode',
    since: 'v1.5.1',
    test: '307 and 308 redirects answer at the edge with their code; the refused 303 and CORS rules are not programmed',
  },
  {
    name: 'HTTPRoute308RedirectStatusCode',
    since: 'v1.5.1',
    test: '307 and 308 redirects answer at the edge with their code; the refused 303 and CORS rules are not programmed',
  },
  {
    name: 'HTTPRouteMethodMatching',
    since: OLDEST_SUPPORTED_RELEASE,
    test: 'conditions: method, headers and query parameters, ANDed; the query pattern matches one whole parameter',
  },
  { name: 'HTTPRoutePathRewrite', since: OLDEST_SUPPORTED_RELEASE, test: 'ReplaceFullPath replaces any path' },
  {
    name: 'HTTPRouteQueryParamMatching',
    since: OLDEST_SUPPORTED_RELEASE,
    test: 'conditions: method, headers and query parameters, ANDed; the query pattern matches one whole parameter',
  },
  {
    name: 'HTTPRouteResponseHeaderModification',
    since: OLDEST_SUPPORTED_RELEASE,
    test: 'a redirect answers at the edge: only response header edits go with it',
  },
  { name: 'ReferenceGrant', since: OLDEST_SUPPORTED_RELEASE, test: 'a revoked ReferenceGrant cuts access (Gateway API semantics, not held)' },
];

/**
 * The features this implementation supports on a hub serving `release` (a bundle-version, see crdBundle): those whose
 * name that release defines. This is what the GatewayClass lists, and what a conformance run should report.
 */
export function supportedFeaturesFor(release: string, features: readonly SupportedFeature[] = SUPPORTED_FEATURES): readonly SupportedFeature[] {
  return features.filter((f) => releaseAtLeast(release, f.since));
}

/** The list as the README shows it: one feature a line, with the test that exercises it. */
export function renderSupportedFeatures(features: readonly SupportedFeature[] = SUPPORTED_FEATURES): string {
  return features.map((f) => `${f.name.padEnd(38)}${f.since.padEnd(9)}${f.test}\n`).join('');
}
