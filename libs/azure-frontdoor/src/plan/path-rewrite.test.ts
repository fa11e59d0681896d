import type { ModelFilter, ModelMatch } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { planPathRewrite, withPlannedRewrite, type PathRewrite } from './path-rewrite.js';
import { actionsOfFilters } from './rule-translation.js';
import type { RuleAction } from './spec-types.js';

const prefix = (value: string): ModelMatch => ({ path: { type: 'PathPrefix', value }, headers: [], queryParams: [] });
const prefixRewrite = (value: string): ModelFilter => ({ type: 'URLRewrite', path: { type: 'ReplacePrefixMatch', value } });
const fullRewrite = (value: string): ModelFilter => ({ type: 'URLRewrite', path: { type: 'ReplaceFullPath', value } });
const redirect: ModelFilter = { type: 'RequestRedirect', statusCode: 302 };
const subtree = (value: string) => ({ kind: 'Subtree' as const, value });

/** Gateway API's result for a request under `match` with the candidate's filters (no filter: the path as it is). */
function gatewayPath(filters: readonly ModelFilter[], match: ModelMatch, path: string): string {
  const rewrite = filters.find((f) => f.type === 'URLRewrite');
  if (rewrite === undefined) return path;
  if (rewrite.path.type === 'ReplaceFullPath') return rewrite.path.value;
  const from = match.path.value;
  const result = rewrite.path.value.replace(/\/+$/, '') + (from === '/' ? path : path.slice(from.length));
  return result === '' ? '/' : result;
}

/**
 * What AFD sends the origin on the `<subtree>/*` route (A60, A67): the rule's rewrite sees what follows the subtree's
 * value, and the route's origin path takes the value's place.
 */
function afdPath(value: string, handling: PathRewrite, actions: readonly RuleAction[], path: string): string {
  let considered = path.slice(value.length);
  for (const action of actions) {
    if (action.type !== 'rewrite' || !considered.startsWith(action.sourcePattern)) continue;
    considered = action.destination + (action.preserveUnmatchedPath ? considered.slice(action.sourcePattern.length) : '');
  }
  return `${handling.originPath.replace(/\/+$/, '')}${considered}`;
}

function expectGatewayPaths(value: string, candidates: Array<{ filters: ModelFilter[]; match: ModelMatch }>): PathRewrite {
  const handling = planPathRewrite(subtree(value), candidates);
  expect(handling).toBeDefined();
  candidates.forEach((candidate, i) => {
    if (candidate.filters.includes(redirect)) return;
    const actions = withPlannedRewrite(actionsOfFilters(candidate.filters, candidate.match), handling!.rewrites[i]);
    for (const request of [`${value}/`, `${value}/x`, `${value}/x/y/`]) {
      expect([i, request, afdPath(value, handling!, actions, request)]).toEqual([i, request, gatewayPath(candidate.filters, candidate.match, request)]);
    }
  });
  return handling!;
}

describe('path rewrites below a prefix other than /', () => {
  it.each([
    ['/v1', '/v2'],
    ['/v1', '/v2/'],
    ['/v1', '/'],
    ['/a/b', '/c/d'],
  ])("one ReplacePrefixMatch %s -> %s for every request: the route's originPath, no rule rewrite", (from, to) => {
    const handling = expectGatewayPaths(from, [{ filters: [prefixRewrite(to)], match: prefix(from) }]);
    expect(handling.originPath).toBe(to.replace(/\/+$/, '') || '/');
    expect(handling.rewrites).toEqual([undefined]);
  });

  it('a redirecting candidate does not count: the forwarding ones agree', () => {
    const handling = expectGatewayPaths('/v1', [
      { filters: [redirect], match: prefix('/v1') },
      { filters: [prefixRewrite('/v2')], match: prefix('/v1') },
    ]);
    expect(handling).toEqual({ originPath: '/v2', rewrites: [undefined, undefined] });
  });

  it('candidates that disagree: originPath / and each rule puts back its own prefix (none, a replacement, a full path)', () => {
    const handling = expectGatewayPaths('/app', [
      { filters: [], match: prefix('/app') },
      { filters: [fullRewrite('/healthz')], match: prefix('/app') },
      { filters: [prefixRewrite('/')], match: prefix('/app') },
      { filters: [prefixRewrite('/v2')], match: prefix('/app') },
    ]);
    expect(handling.originPath).toBe('/');
    expect(handling.rewrites).toEqual([
      { type: 'rewrite', sourcePattern: '/', destination: '/app/', preserveUnmatchedPath: true },
      { type: 'rewrite', sourcePattern: '/', destination: '/healthz', preserveUnmatchedPath: false },
      { type: 'rewrite', sourcePattern: '/', destination: '/', preserveUnmatchedPath: true },
      { type: 'rewrite', sourcePattern: '/', destination: '/v2/', preserveUnmatchedPath: true },
    ]);
  });

  it('a candidate from a shorter prefix keeps the segments below its prefix', () => {
    const handling = expectGatewayPaths('/a/b', [
      { filters: [prefixRewrite('/x')], match: prefix('/a') },
      { filters: [], match: prefix('/a/b') },
    ]);
    expect(handling.rewrites[0]).toEqual({ type: 'rewrite', sourcePattern: '/', destination: '/x/b/', preserveUnmatchedPath: true });
  });

  it('nothing to do on exact paths, on /*, or when no filter rewrites', () => {
    expect(planPathRewrite({ kind: 'Exact', value: '/v1' }, [{ filters: [prefixRewrite('/v2')], match: prefix('/v1') }])).toBeUndefined();
    expect(planPathRewrite(subtree('/'), [{ filters: [prefixRewrite('/v2')], match: prefix('/') }])).toBeUndefined();
    expect(planPathRewrite(subtree('/v1'), [{ filters: [], match: prefix('/v1') }])).toBeUndefined();
  });

  it("the planned rewrite takes the place of the filter's, or joins the other actions", () => {
    const header: RuleAction = { type: 'requestHeader', action: 'Overwrite', name: 'x', value: '1' };
    const planned: RuleAction = { type: 'rewrite', sourcePattern: '/', destination: '/p/', preserveUnmatchedPath: true };
    const filter: RuleAction = { type: 'rewrite', sourcePattern: '/p', destination: '/q', preserveUnmatchedPath: true };
    expect(withPlannedRewrite([header, filter, header], planned)).toEqual([header, planned, header]);
    expect(withPlannedRewrite([header], planned)).toEqual([header, planned]);
    expect(withPlannedRewrite([filter, header], undefined)).toEqual([header]);
  });
});
