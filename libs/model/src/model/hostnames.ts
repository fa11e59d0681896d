import { ANY_HOSTNAME } from './model-types.js';

function isWildcard(hostname: string): boolean {
  return hostname.startsWith('*.');
}

/** Whether `pattern` (a hostname, `*.suffix`, or `*` for any) covers every host that `hostname` covers. */
export function covers(pattern: string, hostname: string): boolean {
  if (pattern === ANY_HOSTNAME || pattern === hostname) return true;
  if (hostname === ANY_HOSTNAME || !isWildcard(pattern)) return false;
  const suffix = pattern.slice(1); // ".example.com"
  return hostname.endsWith(suffix) && hostname.length > suffix.length;
}

/**
 * The hosts served both by a listener hostname and a route hostname (Gateway API intersection): the more specific
 * of the two when one covers the other, nothing otherwise.
 */
export function intersect(listenerHostname: string, routeHostname: string): string | undefined {
  if (covers(listenerHostname, routeHostname)) return routeHostname;
  if (covers(routeHostname, listenerHostname)) return listenerHostname;
  return undefined;
}

/**
 * How specific a hostname is, for precedence: non-wildcard characters count first, then all characters, as the
 * HTTPRoute hostnames documentation orders intersecting routes.
 */
export function hostnameSpecificity(hostname: string): [number, number] {
  if (hostname === ANY_HOSTNAME) return [0, 0];
  return [isWildcard(hostname) ? 0 : hostname.length, hostname.length];
}

/** Among listener hostnames, the one a request for `hostname` lands on: the most specific that covers it. */
export function mostSpecificCovering(candidates: readonly string[], hostname: string): string | undefined {
  let best: string | undefined;
  for (const candidate of candidates) {
    if (!covers(candidate, hostname)) continue;
    if (best === undefined || compareSpecificity(candidate, best) > 0) best = candidate;
  }
  return best;
}

function compareSpecificity(a: string, b: string): number {
  const [a1, a2] = hostnameSpecificity(a);
  const [b1, b2] = hostnameSpecificity(b);
  return a1 - b1 || a2 - b2;
}
