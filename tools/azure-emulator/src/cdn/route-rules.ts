/**
 * Pure rules about AFD routes: valid patterns, the domain + path + protocol conflict, the composite route metric.
 * Pattern rule from afdx.json ("Must not have any * except possibly after the final / at the end of the path");
 * conflict and metric from the AFD routing limits documentation.
 */
export interface RouteShape {
  name: string;
  /** Key of the route's endpoint: a route is identified by endpoint and name. */
  endpoint: string;
  /** Keys (lower-cased ids) of the domains the route serves: the endpoint itself and/or custom domains. */
  domains: string[];
  patterns: string[];
  protocols: string[];
}

export interface RouteConflict {
  other: string;
  otherEndpoint: string;
  domain: string;
  pattern: string;
  protocol: string;
}

export const DEFAULT_PATTERNS = ['/*'];
export const DEFAULT_PROTOCOLS = ['Http', 'Https'];

/** Why a pattern is invalid, or undefined when it is valid. */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern.startsWith('/')) return 'must start with /';
  const star = pattern.indexOf('*');
  if (star !== -1 && (star !== pattern.length - 1 || pattern[star - 1] !== '/')) {
    return 'may contain * only as the last character, right after a /';
  }
  return undefined;
}

export function routeShape(name: string, properties: Record<string, unknown>, endpointKey: string): RouteShape {
  const domains: string[] = [];
  if (properties.linkToDefaultDomain === 'Enabled') domains.push(endpointKey);
  for (const domain of (properties.customDomains as Array<{ id?: string }> | undefined) ?? []) {
    if (typeof domain.id === 'string') domains.push(domain.id.toLowerCase());
  }
  return {
    name,
    endpoint: endpointKey,
    domains,
    patterns: ((properties.patternsToMatch as string[] | undefined) ?? DEFAULT_PATTERNS).map((p) => p.toLowerCase()),
    protocols: (properties.supportedProtocols as string[] | undefined) ?? DEFAULT_PROTOCOLS,
  };
}

/** The first (domain, pattern, protocol) the candidate shares with another route (of any endpoint given). */
export function findRouteConflict(candidate: RouteShape, others: readonly RouteShape[]): RouteConflict | undefined {
  for (const other of others) {
    if (other.endpoint === candidate.endpoint && other.name.toLowerCase() === candidate.name.toLowerCase()) continue;
    for (const domain of candidate.domains) {
      if (!other.domains.includes(domain)) continue;
      for (const pattern of candidate.patterns) {
        if (!other.patterns.includes(pattern)) continue;
        const protocol = candidate.protocols.find((p) => other.protocols.includes(p));
        if (protocol !== undefined) return { other: other.name, otherEndpoint: other.endpoint, domain, pattern, protocol };
      }
    }
  }
  return undefined;
}

/** Σ (domains × paths) per supported protocol: the composite metric AFD caps per profile. */
export function compositeRouteMetric(routes: readonly RouteShape[]): number {
  return routes.reduce((sum, route) => sum + route.domains.length * route.patterns.length * route.protocols.length, 0);
}
