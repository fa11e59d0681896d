import { describe, expect, it } from 'vitest';
import type { ModelMatch } from './model-types.js';
import { buildRouting, type HostAttachment, type RoutedMatch } from './routing-table.js';

function prefix(value: string, headers: { name: string; value: string }[] = []): ModelMatch {
  return { path: { type: 'PathPrefix', value }, headers, queryParams: [] };
}

function routed(route: string, match: ModelMatch, created = '2026-01-01T00:00:00Z'): RoutedMatch {
  return { route, created, rule: 0, matchIndex: 0, match };
}

function attach(hostnames: string[], ...matches: RoutedMatch[]): HostAttachment {
  return { protocol: 'HTTP', listener: 'http', hostnames, matches };
}

describe('buildRouting', () => {
  it('puts a specific host ahead of an inherited wildcard route, even under a longer inherited prefix', () => {
    const { routing } = buildRouting([
      attach(['a.example.com'], routed('ns/specific', prefix('/', [{ name: 'x-user', value: '1' }]))),
      attach(['*.example.com'], routed('ns/wild', prefix('/x/y'))),
    ]);
    const host = routing.find((h) => h.hostname === 'a.example.com');
    const subtree = host?.paths.find((p) => p.path.kind === 'Subtree' && p.path.value === '/x/y');
    // /x/y/z with the header belongs to the specific host's route (hostname first); without it, to the wildcard's.
    expect(subtree?.candidates.map((c) => c.route)).toEqual(['ns/specific', 'ns/wild']);
    const wildHost = routing.find((h) => h.hostname === '*.example.com');
    expect(wildHost?.paths.map((p) => `${p.path.kind} ${p.path.value}`)).toEqual(['Exact /x/y', 'Subtree /x/y']);
  });

  it('orders identical paths by method, headers and query, then age, and names the identical match it shadows', () => {
    const older = routed('ns/older', prefix('/a'), '2026-01-01T00:00:00Z');
    const newer = routed('ns/newer', prefix('/a'), '2026-01-02T00:00:00Z');
    const withMethod: RoutedMatch = { ...routed('ns/method', prefix('/a'), '2026-01-03T00:00:00Z'), match: { ...prefix('/a'), method: 'GET' } };
    const { routing, shadowed } = buildRouting([attach(['h'], newer, older, withMethod)]);
    const subtree = routing[0]?.paths.find((p) => p.path.kind === 'Subtree');
    expect(subtree?.candidates.map((c) => c.route)).toEqual(['ns/method', 'ns/older']);
    expect(shadowed.get('ns/newer')).toEqual([
      'rule 0 match 0 (PathPrefix /a) is shadowed on HTTP host h by the identical match of HTTPRoute ns/older rule 0 match 0 (PathPrefix /a)',
    ]);
    expect(shadowed.has('ns/older')).toBe(false);
  });

  it('does not call a prefix shadowed when an Exact match takes only its exact path', () => {
    const exact: RoutedMatch = { ...routed('ns/exact', prefix('/a')), match: { path: { type: 'Exact', value: '/a' }, headers: [], queryParams: [] } };
    const { routing, shadowed } = buildRouting([attach(['h'], exact, routed('ns/prefix', prefix('/a')))]);
    expect(routing[0]?.paths.map((p) => [p.path.kind, p.candidates.map((c) => c.route)])).toEqual([
      ['Exact', ['ns/exact']],
      ['Subtree', ['ns/prefix']],
    ]);
    expect(shadowed.size).toBe(0);
  });

  describe('Gateway API precedence, level by level', () => {
    const match = (extra: Partial<ModelMatch> = {}): ModelMatch => ({ ...prefix('/a'), ...extra });
    const header = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `h${i}`, value: 'v' }));
    const query = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `q${i}`, value: 'v' }));
    const subtreeOrder = (...matches: RoutedMatch[]) =>
      buildRouting([attach(['h'], ...matches)])
        .routing[0]?.paths.find((p) => p.path.kind === 'Subtree' && p.path.value === '/a/b')
        ?.candidates.map((c) => c.route);

    it('puts a longer prefix ahead of a shorter one', () => {
      const short = routed('ns/short', prefix('/a', header(3)));
      const long = routed('ns/long', prefix('/a/b', header(1)), '2026-02-01T00:00:00Z');
      expect(subtreeOrder(short, long)).toEqual(['ns/long', 'ns/short']);
    });

    it('then a method match ahead of any number of header matches', () => {
      const headers = routed('ns/headers', { ...prefix('/a/b', header(3)) });
      const method = routed('ns/method', { ...prefix('/a/b'), method: 'POST' }, '2026-02-01T00:00:00Z');
      expect(subtreeOrder(headers, method)).toEqual(['ns/method', 'ns/headers']);
    });

    it('then more header matches, then more query matches', () => {
      const oneHeader = routed('ns/one-header', prefix('/a/b', header(1)));
      const twoQueries = routed('ns/two-queries', { ...prefix('/a/b'), queryParams: query(2) });
      const headerAndQuery = routed('ns/header-and-query', { ...prefix('/a/b', header(1)), queryParams: query(1) }, '2026-02-01T00:00:00Z');
      expect(subtreeOrder(twoQueries, oneHeader, headerAndQuery)).toEqual(['ns/header-and-query', 'ns/one-header', 'ns/two-queries']);
    });

    it('then the oldest route, then namespace/name, then the first rule and match of a route', () => {
      const same = match({ headers: header(1) });
      const older = routed('z/older', same, '2026-01-01T00:00:00Z');
      const newerA = routed('a/newer', same, '2026-01-02T00:00:00Z');
      const newerB = routed('b/newer', same, '2026-01-02T00:00:00Z');
      const { shadowed } = buildRouting([attach(['h'], newerB, newerA, older)]);
      expect(shadowed.get('a/newer')?.[0]).toContain('by the identical match of HTTPRoute z/older');
      expect(shadowed.get('b/newer')?.[0]).toContain('by the identical match of HTTPRoute z/older');
      expect(shadowed.has('z/older')).toBe(false);

      const tie = buildRouting([attach(['h'], newerB, newerA)]).shadowed;
      expect(tie.get('b/newer')?.[0]).toContain('by the identical match of HTTPRoute a/newer');
      expect(tie.has('a/newer')).toBe(false);

      const rule1: RoutedMatch = { ...routed('ns/r', same), rule: 1 };
      const rule0: RoutedMatch = { ...routed('ns/r', same), rule: 0, matchIndex: 1 };
      expect(buildRouting([attach(['h'], rule1, rule0)]).shadowed.get('ns/r')).toEqual([
        'rule 1 match 0 (PathPrefix /a) is shadowed on HTTP host h by the identical match of HTTPRoute ns/r rule 0 match 1 (PathPrefix /a)',
      ]);
    });

    it('keeps a less specific candidate behind a conditioned one, and drops everything behind an unconditioned one', () => {
      const conditioned = routed('ns/conditioned', prefix('/a/b', header(1)));
      const plain = routed('ns/plain', prefix('/a'));
      const unreachable = routed('ns/unreachable', prefix('/', header(2)));
      expect(subtreeOrder(unreachable, plain, conditioned)).toEqual(['ns/conditioned', 'ns/plain']);
    });
  });
});
