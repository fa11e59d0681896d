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
});
