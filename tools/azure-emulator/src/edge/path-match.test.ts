import { describe, expect, it } from 'vitest';
import { matchRoute } from './path-match.js';
import type { RouteEntry } from './routing-table.js';

function route(name: string, patterns: string[], protocols = ['Http', 'Https'], httpsRedirect = false): RouteEntry {
  return { name, patterns, protocols, httpsRedirect, originGroupKey: name, originPath: '', forwardingProtocol: 'MatchRequest', rules: [] };
}

// Cases for the documented order (front-door-route-matching): an exact path first, then the longest wildcard.
const routes = [
  route('A', ['/']),
  route('B', ['/*']),
  route('C', ['/ab']),
  route('D', ['/abc']),
  route('E', ['/abc/']),
  route('F', ['/abc/*']),
  route('G', ['/abc/def']),
  route('H', ['/path/']),
];

describe('matchRoute', () => {
  it.each([
    ['/', 'A'],
    ['/a', 'B'],
    ['/ab', 'C'],
    ['/abc', 'D'],
    ['/abzzz', 'B'],
    ['/abc/', 'E'],
    ['/abc/d', 'F'],
    ['/abc/def', 'G'],
    ['/abc/defzzz', 'F'],
    ['/abc/def/ghi', 'F'],
    ['/path', 'B'],
    ['/path/', 'H'],
    ['/path/zzz', 'B'],
  ])('%s -> %s', (path, expected) => {
    expect(matchRoute(routes, 'Http', path)?.route.name).toBe(expected);
  });

  it('matches on protocol first and redirects HTTP to an HTTPS-only route that asks for it', () => {
    const secure = [route('secure', ['/*'], ['Https'], true), route('plain', ['/public/*'], ['Http'])];
    expect(matchRoute(secure, 'Http', '/public/x')?.route.name).toBe('plain');
    expect(matchRoute(secure, 'Http', '/x')).toEqual({ route: secure[0], redirectToHttps: true, prefixLength: 0, exact: false });
    expect(matchRoute(secure, 'Https', '/x')?.redirectToHttps).toBe(false);
    expect(matchRoute([route('only-https', ['/*'], ['Https'])], 'Http', '/x')).toBeUndefined();
  });

  it('says how much of the path the matched pattern fixes (what a URL rewrite leaves alone)', () => {
    expect(matchRoute(routes, 'Http', '/abc/d')?.prefixLength).toBe('/abc'.length);
    expect(matchRoute(routes, 'Http', '/a')?.prefixLength).toBe(0);
    expect(matchRoute(routes, 'Http', '/abc/def')?.prefixLength).toBe(0);
  });
});
