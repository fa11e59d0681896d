import type { RouteMatch } from './path-match.js';

/**
 * The path the origin receives for a route with `originPath`: the origin path takes the place of the part of the path
 * the matched pattern fixes, and the rest follows it. On `/shop/*` that part is `/shop` (`/shop/a/b` with `/fwd/` →
 * `/fwd/a/b`, with `/` → `/a/b`), on `/*` nothing (the origin path precedes the whole path), on an exact pattern the
 * whole path (the origin path is sent as it is). Sources: how-to-configure-endpoints (`/foo/*`, origin path `/fwd/`,
 * `/foo/a/b/c/` → `fwd/a/b/c`), front-door-url-rewrite ("set the origin path … to `/`" removes the pattern-to-match
 * segment) and classic's custom forwarding path table; trailing slashes of the origin path and the exact-pattern case
 * are A67. `path` is the request path after the rules' rewrites, which leave the fixed part alone (A60).
 */
export function originRequestPath(path: string, match: Pick<RouteMatch, 'prefixLength' | 'exact'>, originPath: string): string {
  if (originPath === '') return path;
  if (match.exact) return originPath;
  return `${originPath.replace(/\/+$/, '')}${path.slice(match.prefixLength)}`;
}
