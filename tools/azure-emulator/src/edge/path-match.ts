import type { RouteEntry } from './routing-table.js';

export interface RouteMatch {
  route: RouteEntry;
  redirectToHttps: boolean;
  /** How much of the path the matched pattern fixes: `/shop/*` fixes `/shop`; `/*` and exact patterns fix nothing. */
  prefixLength: number;
  /** Whether an exact pattern (no `*`) matched. */
  exact: boolean;
}

/**
 * AFD's route matching once the host is known (https://learn.microsoft.com/azure/frontdoor/front-door-route-matching):
 * protocol first, then an exact path match, then the longest wildcard pattern (`/prefix/*`); case-insensitive
 * (an assumption, see README). An HTTP request that only an HTTPS route with httpsRedirect matches is redirected.
 */
export function matchRoute(routes: readonly RouteEntry[], protocol: 'Http' | 'Https', path: string): RouteMatch | undefined {
  const direct = bestPathMatch(
    routes.filter((route) => route.protocols.includes(protocol)),
    path,
  );
  if (direct !== undefined)
    return { ...direct, redirectToHttps: protocol === 'Http' && direct.route.httpsRedirect && direct.route.protocols.includes('Https') };
  if (protocol === 'Http') {
    const redirect = bestPathMatch(
      routes.filter((route) => route.httpsRedirect && route.protocols.includes('Https')),
      path,
    );
    if (redirect !== undefined) return { ...redirect, redirectToHttps: true };
  }
  return undefined;
}

function bestPathMatch(routes: readonly RouteEntry[], path: string): Omit<RouteMatch, 'redirectToHttps'> | undefined {
  const lowerPath = path.toLowerCase();
  let best: { route: RouteEntry; length: number } | undefined;
  for (const route of routes) {
    for (const pattern of route.patterns) {
      if (!pattern.endsWith('*')) {
        if (pattern === lowerPath) return { route, prefixLength: 0, exact: true };
        continue;
      }
      const prefix = pattern.slice(0, -1);
      if (lowerPath.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = { route, length: prefix.length };
    }
  }
  // The wildcard's prefix ends in `/`, which belongs to what follows it.
  return best === undefined ? undefined : { route: best.route, prefixLength: best.length - 1, exact: false };
}
