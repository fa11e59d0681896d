import { describe, expect, it } from 'vitest';
import { expandRoute, findRoutePatternConflicts, patternFor } from './route-patterns.js';
import type { RouteSpec } from './spec-types.js';

function route(name: string, patterns: string[], protocols: RouteSpec['supportedProtocols'] = ['Http']): RouteSpec {
  return {
    ref: { kind: 'route', profile: 'p', endpoint: 'e', route: name },
    customDomains: [],
    originGroup: 'og',
    patterns,
    supportedProtocols: protocols,
    forwardingProtocol: 'HttpOnly',
    ruleSets: [],
    withdrawn: false,
    provenance: [],
  };
}

describe('route patterns', () => {
  it('maps path keys to AFD patterns: PathPrefix /a -> /a and /a/*, Exact /a -> /a', () => {
    expect(patternFor({ kind: 'Exact', value: '/a' })).toBe('/a');
    expect(patternFor({ kind: 'Subtree', value: '/a' })).toBe('/a/*');
    expect(patternFor({ kind: 'Subtree', value: '/' })).toBe('/*');
    expect(patternFor({ kind: 'Exact', value: '/' })).toBe('/');
  });

  it('expands domains x patterns x protocols on the default domain', () => {
    expect(expandRoute(route('r', ['/a', '/a/*'], ['Http', 'Https']))).toEqual([
      { domain: 'default', pattern: '/a', protocol: 'Http' },
      { domain: 'default', pattern: '/a', protocol: 'Https' },
      { domain: 'default', pattern: '/a/*', protocol: 'Http' },
      { domain: 'default', pattern: '/a/*', protocol: 'Https' },
    ]);
  });

  it('a custom domain route claims its own domain, not the default one: the same pattern there is no conflict', () => {
    const custom = { ...route('c', ['/a']), customDomains: ['cd-shop'] };
    expect(expandRoute(custom)).toEqual([{ domain: 'domain/cd-shop', pattern: '/a', protocol: 'Http' }]);
    expect(findRoutePatternConflicts([route('r', ['/a']), custom])).toEqual([]);
    expect(findRoutePatternConflicts([custom, { ...custom, ref: { ...custom.ref, route: 'd' } }])[0]?.message).toBe(
      'routes c and d both match pattern /a over Http on custom domain cd-shop',
    );
  });

  it('finds the same (domain, pattern, protocol) in two routes, comparing patterns as AFD does (case-insensitively)', () => {
    const conflicts = findRoutePatternConflicts([route('r1', ['/A', '/b']), route('r2', ['/a'], ['Http', 'Https'])]);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]?.message).toBe("routes r1 and r2 both match pattern /a over Http on the endpoint's default domain");
  });

  it('accepts the same pattern over different protocols', () => {
    expect(findRoutePatternConflicts([route('r1', ['/a'], ['Http']), route('r2', ['/a'], ['Https'])])).toEqual([]);
  });
});
