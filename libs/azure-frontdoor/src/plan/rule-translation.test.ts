import type { ModelFilter, ModelMatch } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { actionsOfFilters, chunkActions, conditionsOf, queryParamPattern } from './rule-translation.js';

const prefix = (value: string): ModelMatch => ({ path: { type: 'PathPrefix', value }, headers: [], queryParams: [] });
const rewrite = (type: 'ReplaceFullPath' | 'ReplacePrefixMatch', value: string): ModelFilter => ({ type: 'URLRewrite', path: { type, value } });

/** What AFD's UrlRewrite does to a path (prefix match on sourcePattern, the rest appended when preserved). */
function applyRewrite(path: string, action: ReturnType<typeof actionsOfFilters>[number]): string {
  if (action.type !== 'rewrite' || !path.startsWith(action.sourcePattern)) return path;
  return action.destination + (action.preserveUnmatchedPath ? path.slice(action.sourcePattern.length) : '');
}

/** Gateway API's ReplacePrefixMatch (HTTPPathModifier): whole segments, a trailing "/" on either side ignored. */
function gatewayRewrite(prefix: string, replacement: string, path: string): string {
  const rest = prefix === '/' ? path : path.slice(prefix.length);
  const result = replacement.replace(/\/+$/, '') + rest;
  return result === '' ? '/' : result;
}

describe('rules engine translation', () => {
  it.each([
    ['/a', '/b'],
    ['/a', '/b/'],
    ['/', '/b'],
    ['/', '/b/'],
    ['/', '/'],
    ['/a/b', '/c'],
    ['/a/b', '/c/d/'],
    ['/a', '/'],
  ])('ReplacePrefixMatch %s -> %s rewrites what the rule sees whole (A60) as Gateway API says: the exact path, everything on /*', (from, to) => {
    // Below another prefix the rule never sees the prefix: path-rewrite.test.ts covers those requests.
    const [action] = actionsOfFilters([rewrite('ReplacePrefixMatch', to)], prefix(from));
    const requests = from === '/' ? ['/', '/x', '/x/y'] : [from];
    for (const request of requests) expect([request, action && applyRewrite(request, action)]).toEqual([request, gatewayRewrite(from, to, request)]);
  });

  it('case 4: PathPrefix /a with ReplacePrefixMatch /b/ rewrites a request for exactly /a (the source pattern is /a, not /a/)', () => {
    const [action] = actionsOfFilters([rewrite('ReplacePrefixMatch', '/b/')], prefix('/a'));
    expect(action).toEqual({ type: 'rewrite', sourcePattern: '/a', destination: '/b', preserveUnmatchedPath: true });
    expect(action && applyRewrite('/a', action)).toBe('/b');
  });

  it('ReplaceFullPath replaces any path', () => {
    const [action] = actionsOfFilters([rewrite('ReplaceFullPath', '/new')], prefix('/a'));
    expect(action).toEqual({ type: 'rewrite', sourcePattern: '/', destination: '/new', preserveUnmatchedPath: false });
    expect(action && applyRewrite('/a/deep/path', action)).toBe('/new');
  });

  it('a redirect answers at the edge: only response header edits go with it', () => {
    const actions = actionsOfFilters(
      [
        { type: 'RequestHeaderModifier', set: [{ name: 'x-a', value: '1' }], add: [], remove: [] },
        { type: 'RequestRedirect', scheme: 'https', statusCode: 301 },
        { type: 'ResponseHeaderModifier', set: [], add: [{ name: 'x-b', value: '2' }], remove: ['x-c'] },
      ],
      prefix('/'),
    );
    expect(actions.map((a) => a.type)).toEqual(['redirect', 'responseHeader', 'responseHeader']);
  });

  it('conditions: method, headers and query parameters, ANDed; the query pattern matches one whole parameter', () => {
    expect(conditionsOf({ method: 'GET', headers: [{ name: 'x-a', value: '1' }], queryParams: [{ name: 'v', value: '2' }] })).toEqual([
      { type: 'method', method: 'GET' },
      { type: 'header', name: 'x-a', value: '1' },
      { type: 'query', name: 'v', value: '2' },
    ]);
    const pattern = new RegExp(queryParamPattern('v', 'a.b'));
    expect(['v=a.b', 'x=1&v=a.b', 'v=a.b&y=2'].every((q) => pattern.test(q))).toBe(true);
    expect(['v=axb', 'vv=a.b', 'v=a.bc'].some((q) => pattern.test(q))).toBe(false);
  });

  it('spreads more than 5 actions over rules', () => {
    const actions = actionsOfFilters([{ type: 'RequestHeaderModifier', set: [], add: [], remove: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }], prefix('/'));
    expect(chunkActions(actions).map((c) => c.length)).toEqual([5, 2]);
  });
});
