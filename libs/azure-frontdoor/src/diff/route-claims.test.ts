import type { Route } from '@azure/arm-cdn';
import { describe, expect, it } from 'vitest';
import type { Observed } from '../observe/observe.js';
import { resolveRouteClaims, routeWaves } from './route-claims.js';
import type { HeldPattern, RouteSpec } from '../plan/spec-types.js';

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

/**
 * The route writes the claims order, wave by wave (a hand-over's first write in wave 0), applied to the observed
 * patterns as AFD would: each write of a wave is checked against the others' patterns before and after that wave,
 * since a wave's writes run concurrently. Returns the patterns each route ends with.
 */
function applyInWaves(start: readonly Observed<Route>[], claims: ReturnType<typeof resolveRouteClaims>): Map<string, string[]> {
  const state = new Map(start.map((o) => [o.name, [...(o.arm.patternsToMatch ?? [])]]));
  const waves = routeWaves(claims.waitsFor, claims.handovers);
  const writes = [
    ...[...claims.handovers].map(([name, patterns]) => ({ name, patterns: [...patterns], wave: 0 })),
    ...claims.routes.map((r) => ({ name: r.ref.route, patterns: [...r.patterns], wave: waves.get(r.ref.route) ?? 0 })),
  ];
  for (const wave of [...new Set(writes.map((w) => w.wave))].sort((a, b) => a - b)) {
    const group = writes.filter((w) => w.wave === wave);
    for (const write of group) {
      const others = [...state]
        .filter(([name]) => name !== write.name)
        .flatMap(([name, before]) => [...before, ...(group.find((w) => w.name === name)?.patterns ?? [])]);
      expect([wave, write.name, write.patterns.filter((p) => others.includes(p))]).toEqual([wave, write.name, []]);
    }
    for (const write of group) state.set(write.name, write.patterns);
  }
  return state;
}

const held = (pattern: string): HeldPattern => ({
  pattern,
  protocol: 'Http',
  cause: 'store/shop rule/1: its backends mix public and Private Link origins',
  provenance: [],
});

describe('route claims (pure)', () => {
  it('a held pattern freezes the route that serves it; a desired route that would collide with it is blocked', () => {
    const claims = resolveRouteClaims(
      [desired('rt-new', ['/shop']), desired('rt-other', ['/other'])],
      [held('/shop/*')],
      [observed('rt-old', ['/shop', '/shop/*']), observed('rt-other', ['/other'])],
    );
    expect([...claims.frozen.values()]).toEqual([
      {
        name: 'rt-old',
        cause:
          "kept as last programmed: it serves /shop/* over Http on the endpoint's default domain, held while store/shop rule/1: its backends mix public and Private Link origins",
      },
    ]);
    expect(claims.blocked.map((b) => [b.route.ref.route, b.cause])).toEqual([
      ['rt-new', expect.stringMatching(/^\/shop over Http on the endpoint's default domain is held by route rt-old, kept as last programmed/)],
    ]);
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
    const claims = resolveRouteClaims(
      [desired('rt-new', ['/shop', '/shop/*', '/x'])],
      [],
      [observed('rt-small', ['/x']), observed('rt-old', ['/shop', '/shop/*'])],
    );
    expect(claims.routes.map((r) => r.ref.route)).toEqual(['rt-old']);
    expect(claims.waitsFor).toEqual(new Map([['rt-old', ['rt-small']]]));
  });

  it('a route that takes a pattern from another waits for it: the giver runs in an earlier wave', () => {
    const claims = resolveRouteClaims([desired('rt-prefix', ['/a/*']), desired('rt-exact', ['/a'])], [], [observed('rt-prefix', ['/a', '/a/*'])]);
    expect(claims.routes.map((r) => r.ref.route)).toEqual(['rt-prefix', 'rt-exact']);
    expect(claims.waitsFor).toEqual(new Map([['rt-exact', ['rt-prefix']]]));
    expect(routeWaves(claims.waitsFor)).toEqual(
      new Map([
        ['rt-prefix', 0],
        ['rt-exact', 1],
      ]),
    );
  });

  it('orders chains and stops on cycles', () => {
    expect(
      routeWaves(
        new Map([
          ['c', ['b']],
          ['b', ['a']],
        ]),
      ),
    ).toEqual(
      new Map([
        ['a', 0],
        ['b', 1],
        ['c', 2],
      ]),
    );
    const cycle = routeWaves(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
      ]),
    );
    expect([...cycle.keys()].sort()).toEqual(['a', 'b']);
  });

  it('two routes swapping patterns: one first keeps only what nobody else wants, then the other takes its, then the first', () => {
    const start = [observed('rt-shop-0-745', ['/shop', '/shop/*']), observed('rt-shop-0-a90d', ['/shop/cart', '/shop/cart/*'])];
    const claims = resolveRouteClaims([desired('rt-shop-0-745', ['/shop', '/shop/cart']), desired('rt-shop-0-a90d', ['/shop/*', '/shop/cart/*'])], [], start);
    expect(claims.waitsFor).toEqual(
      new Map([
        ['rt-shop-0-745', ['rt-shop-0-a90d']],
        ['rt-shop-0-a90d', ['rt-shop-0-745']],
      ]),
    );
    expect(claims.handovers).toEqual(
      new Map([
        ['rt-shop-0-745', ['/shop']],
        ['rt-shop-0-a90d', ['/shop/cart/*']],
      ]),
    );
    expect(applyInWaves(start, claims)).toEqual(
      new Map([
        ['rt-shop-0-745', ['/shop', '/shop/cart']],
        ['rt-shop-0-a90d', ['/shop/*', '/shop/cart/*']],
      ]),
    );
  });

  it('a three-route cycle is broken by the hand-overs of its routes that keep a pattern of their own', () => {
    const start = [observed('rt-a', ['/a', '/x']), observed('rt-b', ['/b', '/y']), observed('rt-c', ['/c'])];
    const claims = resolveRouteClaims([desired('rt-a', ['/b', '/x']), desired('rt-b', ['/c', '/y']), desired('rt-c', ['/a'])], [], start);
    // rt-c keeps nothing of its own (a route without a pattern is not known to be valid on AFD): it hands nothing over.
    expect(claims.handovers).toEqual(
      new Map([
        ['rt-a', ['/x']],
        ['rt-b', ['/y']],
      ]),
    );
    expect(routeWaves(claims.waitsFor, claims.handovers)).toEqual(
      new Map([
        ['rt-a', 1],
        ['rt-b', 2],
        ['rt-c', 1],
      ]),
    );
    expect(applyInWaves(start, claims)).toEqual(
      new Map([
        ['rt-a', ['/b', '/x']],
        ['rt-b', ['/c', '/y']],
        ['rt-c', ['/a']],
      ]),
    );
  });

  it('a chain without a cycle hands nothing over', () => {
    const claims = resolveRouteClaims([desired('rt-prefix', ['/a/*']), desired('rt-exact', ['/a'])], [], [observed('rt-prefix', ['/a', '/a/*'])]);
    expect(claims.handovers).toEqual(new Map());
  });
});
