import type { PathKey } from '@fleet-gateway/model';
import type { EndpointProtocol, RouteSpec } from './spec-types.js';

/**
 * AFD pattern of a path key: `Exact /a` -> `/a`, `Subtree /a` -> `/a/*` (so PathPrefix `/a`, which the model splits
 * into both keys, becomes `/a` and `/a/*`). AFD allows `*` only at the end, right after a `/`.
 */
export function patternFor(key: PathKey): string {
  if (key.kind === 'Exact') return key.value;
  return key.value === '/' ? '/*' : `${key.value}/*`;
}

/**
 * Why AFD would refuse a route pattern (afdx.json, patternsToMatch: "Must not have any * except possibly after the
 * final / at the end of the path"), or undefined. The model never produces such a path; the plan proves it.
 */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern.startsWith('/')) return `pattern ${pattern} must start with /`;
  const star = pattern.indexOf('*');
  if (star !== -1 && (star !== pattern.length - 1 || pattern[star - 1] !== '/'))
    return `pattern ${pattern} may contain * only as its last character, right after a /`;
  return undefined;
}

/** One thing AFD matches a request on: a domain (the endpoint's default domain or a custom domain), a path pattern, a protocol. */
export interface RouteMatchKey {
  readonly domain: string;
  readonly pattern: string;
  readonly protocol: EndpointProtocol;
}

/**
 * The AFD domains a route of the Gateway's one endpoint serves, as match keys: `default` for the endpoint's default
 * domain it links to, `domain/<name>` per custom domain (names compare case-insensitively).
 */
export function routeDomainKeys(linkToDefaultDomain: boolean, customDomains: readonly string[]): string[] {
  return [...(linkToDefaultDomain ? [domainKey(undefined)] : []), ...customDomains.map(domainKey)];
}

/** The match key of one domain: a custom domain by name, undefined for the endpoint's default domain. */
export function domainKey(customDomain: string | undefined): string {
  return customDomain === undefined ? 'default' : `domain/${customDomain.toLowerCase()}`;
}

/** The domains a planned route serves: its custom domains, else (none named) the endpoint's default domain. */
export function specDomainKeys(route: Pick<RouteSpec, 'customDomains'>): string[] {
  return routeDomainKeys(route.customDomains.length === 0, route.customDomains);
}

/** What a domain key names, for messages. */
export function describeDomainKey(key: string): string {
  return key.startsWith('domain/') ? `custom domain ${key.slice('domain/'.length)}` : "the endpoint's default domain";
}

/** Domains × patterns × protocols of a route, on the actual AFD domains (patterns compare case-insensitively). */
export function expandRoute(route: RouteSpec): RouteMatchKey[] {
  return specDomainKeys(route).flatMap((domain) =>
    route.patterns.flatMap((pattern) => route.supportedProtocols.map((protocol) => ({ domain, pattern: pattern.toLowerCase(), protocol }))),
  );
}

export interface RoutePatternConflict {
  readonly key: RouteMatchKey;
  readonly routes: readonly [string, string];
  readonly message: string;
}

/** Every (domain, pattern, protocol) claimed by two routes: AFD rejects such a route, so the plan must never send one. */
export function findRoutePatternConflicts(routes: readonly RouteSpec[]): RoutePatternConflict[] {
  const owner = new Map<string, string>();
  const conflicts: RoutePatternConflict[] = [];
  for (const route of routes) {
    for (const key of new Map(expandRoute(route).map((k) => [JSON.stringify(k), k])).values()) {
      const id = JSON.stringify(key);
      const first = owner.get(id);
      if (first === undefined) {
        owner.set(id, route.ref.route);
        continue;
      }
      conflicts.push({
        key,
        routes: [first, route.ref.route],
        message: `routes ${first} and ${route.ref.route} both match pattern ${key.pattern} over ${key.protocol} on ${describeDomainKey(key.domain)}`,
      });
    }
  }
  return conflicts;
}
