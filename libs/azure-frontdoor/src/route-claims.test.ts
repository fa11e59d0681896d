import type { Route } from '@azure/arm-cdn';
import { describe, expect, it } from 'vitest';
import type { Observed } from './observe.js';
import { resolveRouteClaims, routeWaves } from './route-claims.js';
import type { HeldPattern, RouteSpec } from './spec-types.js';

function desired(name: string, patterns: string[]): RouteSpec {
  return {
    ref: { kind: 'route', profile: 'p', endpoint: 'e', route: name },
    customDomains: [],
    originGroup: 'og',
    patterns,
    supportedProtocols: ['Http'],
    forwardingProtocol: 'HttpOnly',
    ruleSets: [],
    withdrawn: false,
    provenance: [],
  };
}

function observed(name: string, patterns: string[]): Observed<Route> {
  return { name, parent: 'e', arm: { name, patternsToMatch: patterns, supportedProtocols: ['Http'], linkToDefaultDomain: 'Enabled' } };
}

const held = (pattern: string): HeldPattern => ({ pattern, protocol: 'Http', cause: 'store/shop rule/1: its backends mix public and Private Link origins', provenance: [] });

describe('route claims (pure)', () => {
  it('a held pattern freezes the route that serves it; a desired route that would collide with it is blocked', () => {
    const claims = resolveRouteClaims(
      [desired('rt-new', ['/shop']), desired('rt-other', ['/other'])],
      [held('/shop/*')],
      [observed('rt-old', ['/shop', '/shop/*']), observed('rt-other', ['/other'])],
    );
    expect([...claims.frozen.values()]).toEqual([
      { name: 'rt-old', cause: "kept as last programmed: it serves /shop/* over Http on the endpoint's default domain, held while store/shop rule/1: its backends mix public and Private Link origins" },
    ]);
    expect(claims.blocked.map((b) => [b.route.ref.route, b.cause])).toEqual([['rt-new', expect.stringMatching(/^\/shop over Http on the endpoint's default domain is held by route rt-old, kept as last programmed/)]]);
    expect(claims.routes.map((r) => r.ref.route)).toEqual(['rt-other']);
  });

  it('blocking spreads: a blocked route keeps its own AFD route, which may block another', () => {
    const claims = resolveRouteClaims(
      [desired('rt-b', ['/b', '/a']), desired('rt-c', ['/c', '/b/x'])],
      [held('/a')],
      [observed('rt-a', ['/a']), observed('rt-b', ['/b', '/b/x'])],
    );
    expect([...claims.frozen.keys()].sort()).toEqual(['rt-a', 'rt-b']);
    expect(claims.blocked.map((b) => b.route.ref.route).sort()).toEqual(['rt-b', 'rt-c']);
  });

  it('a renamed route takes over the AFD route it replaces (one update, no gap), the one it overlaps most', () => {
    const claims = resolveRouteClaims([desired('rt-new', ['/shop', '/shop/*', '/x'])], [], [observed('rt-small', ['/x']), observed('rt-old', ['/shop', '/shop/*'])]);
    expect(claims.routes.map((r) => r.ref.route)).toEqual(['rt-old']);
    expect(claims.waitsFor).toEqual(new Map([['rt-old', ['rt-small']]]));
  });

  it('a route that takes a pattern from another waits for it: the giver runs in an earlier wave', () => {
    const claims = resolveRouteClaims([desired('rt-prefix', ['/a/*']), desired('rt-exact', ['/a'])], [], [observed('rt-prefix', ['/a', '/a/*'])]);
    expect(claims.routes.map((r) => r.ref.route)).toEqual(['rt-prefix', 'rt-exact']);
    expect(claims.waitsFor).toEqual(new Map([['rt-exact', ['rt-prefix']]]));
    expect(routeWaves(claims.waitsFor)).toEqual(new Map([['rt-prefix', 0], ['rt-exact', 1]]));
  });

  it('orders chains and stops on cycles', () => {
    expect(routeWaves(new Map([['c', ['b']], ['b', ['a']]]))).toEqual(new Map([['a', 0], ['b', 1], ['c', 2]]));
    const cycle = routeWaves(new Map([['a', ['b']], ['b', ['a']]]));
    expect([...cycle.keys()].sort()).toEqual(['a', 'b']);
  });
});
