import { escapeRegex, type HeaderEdits, type ModelFilter, type ModelMatch, type RoutingCandidate } from '@fleet-gateway/model';
import type { HeaderActionKind, RuleAction, RuleCondition } from './spec-types.js';

/** AFD allows at most 5 actions per rule (rules engine limits); resolve keeps conditions within AFD's 10 per rule. */
const MAX_ACTIONS_PER_RULE = 5;

export function isUnconditional(candidate: Pick<RoutingCandidate, 'method' | 'headers' | 'queryParams'>): boolean {
  return candidate.method === undefined && candidate.headers.length === 0 && candidate.queryParams.length === 0;
}

/** The query-string pattern of one exact parameter match: AFD matches the whole query string, not one parameter. */
export function queryParamPattern(name: string, value: string): string {
  return `(^|&)${escapeRegex(encodeURIComponent(name))}=${escapeRegex(encodeURIComponent(value))}(&|$)`;
}

/** A match's method, headers and query parameters as AFD conditions (ANDed, as Gateway API ANDs them). */
export function conditionsOf(candidate: Pick<RoutingCandidate, 'method' | 'headers' | 'queryParams'>): RuleCondition[] {
  return [
    ...(candidate.method ? [{ type: 'method' as const, method: candidate.method }] : []),
    ...candidate.headers.map((h) => ({ type: 'header' as const, name: h.name, value: h.value })),
    ...candidate.queryParams.map((q) => ({ type: 'query' as const, name: q.name, value: q.value })),
  ];
}

function headerActions(type: 'requestHeader' | 'responseHeader', edits: HeaderEdits): RuleAction[] {
  const action = (kind: HeaderActionKind, name: string, value?: string): RuleAction => ({
    type,
    action: kind,
    name,
    ...(value === undefined ? {} : { value }),
  });
  return [
    ...edits.set.map((h) => action('Overwrite', h.name, h.value)),
    ...edits.add.map((h) => action('Append', h.name, h.value)),
    ...edits.remove.map((name) => action('Delete', name)),
  ];
}

function filterActions(filter: ModelFilter, match: ModelMatch): RuleAction[] {
  switch (filter.type) {
    case 'RequestHeaderModifier':
      return headerActions('requestHeader', filter);
    case 'ResponseHeaderModifier':
      return headerActions('responseHeader', filter);
    case 'RequestRedirect':
      return [
        {
          type: 'redirect',
          statusCode: filter.statusCode,
          ...(filter.scheme ? { scheme: filter.scheme } : {}),
          ...(filter.hostname ? { hostname: filter.hostname } : {}),
          ...(filter.path !== undefined ? { path: filter.path } : {}),
        },
      ];
    case 'CORS':
      // Rules of their own, conditioned on the request's Origin (cors-rules.ts).
      return [];
    case 'URLRewrite':
      return filter.path.type === 'ReplaceFullPath'
        ? [{ type: 'rewrite', sourcePattern: '/', destination: filter.path.value, preserveUnmatchedPath: false }]
        : [prefixRewrite(match.path.value, filter.path.value)];
  }
}

/**
 * ReplacePrefixMatch as AFD's UrlRewrite, which replaces `sourcePattern` (a plain prefix of the path) with
 * `destination` and appends the rest as it is. Gateway API replaces whole segments and ignores a trailing `/` on
 * either side, so `/a` -> `/b/` is `/a` -> `/b`. This is right where the rule sees the whole path (A60): on an exact
 * path (`/a` becomes `/b`, and `/` in place of `/a` when the replacement is `/`) and on `/*`, where the rest starts with
 * its own segment, so the destination ends in `/`: `/x` becomes `/b/x`. Below another prefix the rule never sees the
 * prefix: path-rewrite.ts gives such routes an origin path and its own rewrites instead.
 */
function prefixRewrite(prefix: string, replacement: string): RuleAction {
  const trimmed = replacement.replace(/\/+$/, '');
  const rewrite = (sourcePattern: string, destination: string): RuleAction => ({ type: 'rewrite', sourcePattern, destination, preserveUnmatchedPath: true });
  if (prefix === '/') return rewrite('/', `${trimmed}/`);
  return rewrite(prefix, trimmed === '' ? '/' : trimmed);
}

/** What a rule's filters do, in AFD actions; a redirect answers at the edge, so nothing else is needed with it. */
export function actionsOfFilters(filters: readonly ModelFilter[], match: ModelMatch): RuleAction[] {
  const actions = filters.flatMap((f) => filterActions(f, match));
  const redirect = actions.find((a) => a.type === 'redirect');
  return redirect ? [redirect, ...actions.filter((a) => a.type === 'responseHeader')] : actions;
}

/** Splits actions into AFD-sized chunks (the rules that carry them share the same conditions). */
export function chunkActions(actions: readonly RuleAction[]): RuleAction[][] {
  const chunks: RuleAction[][] = [];
  for (let i = 0; i < actions.length; i += MAX_ACTIONS_PER_RULE) chunks.push(actions.slice(i, i + MAX_ACTIONS_PER_RULE));
  return chunks;
}
