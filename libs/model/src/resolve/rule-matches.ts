import type { HTTPRouteMatch } from '@fleet-gateway/api-types';
import { MAX_CONDITIONS_PER_RULE, MAX_HEADER_CONDITION_VALUE } from '../model/afd-value-limits.js';
import type { ModelMatch, NameValue } from '../model/model-types.js';

/** HTTP methods AFD's RequestMethod condition accepts (cdn.json RequestMethodMatchValue). */
const AFD_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);

export type Converted<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** PathPrefix matches whole path elements and ignores a trailing "/", so "/a/" and "/a" are the same prefix. */
export function normalizePrefix(value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function firstByName(entries: readonly { name: string; value: string }[], caseInsensitive: boolean): NameValue[] {
  const seen = new Set<string>();
  const out: NameValue[] = [];
  for (const { name, value } of entries) {
    const key = caseInsensitive ? name.toLowerCase() : name;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: key, value });
  }
  return out;
}

/** Each of method, header and query parameter is one AFD rule condition (ANDed in one rule). */
export function conditionCount(match: Pick<ModelMatch, 'method' | 'headers' | 'queryParams'>): number {
  return (match.method ? 1 : 0) + match.headers.length + match.queryParams.length;
}

/** Converts one match with the CRD defaults applied (PathPrefix "/"), or says what AFD cannot express. */
export function convertMatch(match: HTTPRouteMatch): Converted<ModelMatch> {
  const type = match.path?.type ?? 'PathPrefix';
  const value = match.path?.value ?? '/';
  if (type === 'RegularExpression') return { ok: false, problem: `path type RegularExpression (${value}) is not supported` };
  // AFD reads `*` in a pattern as a wildcard and accepts it only right after the final `/`: a literal `*` would be
  // refused (`/foo*`) or would widen the match (`/a/*` serving `/a/x`).
  if (value.includes('*')) {
    return { ok: false, problem: `path ${type} ${value} contains "*", which AFD patterns read as a wildcard; a path without "*" is expected` };
  }
  const regexHeader = (match.headers ?? []).find((h) => h.type === 'RegularExpression');
  if (regexHeader) return { ok: false, problem: `header match RegularExpression on ${regexHeader.name} is not supported` };
  const regexQuery = (match.queryParams ?? []).find((q) => q.type === 'RegularExpression');
  if (regexQuery) return { ok: false, problem: `query parameter match RegularExpression on ${regexQuery.name} is not supported` };
  if (match.method && !AFD_METHODS.has(match.method)) {
    return { ok: false, problem: `method ${match.method} is not supported; AFD matches ${[...AFD_METHODS].join(', ')}` };
  }
  const headers = firstByName(match.headers ?? [], true);
  const queryParams = firstByName(match.queryParams ?? [], false);
  const longHeader = headers.find((h) => h.value.length > MAX_HEADER_CONDITION_VALUE);
  if (longHeader) {
    return {
      ok: false,
      problem: `header match ${longHeader.name} has a value of ${longHeader.value.length} characters; AFD rule conditions take header values of at most ${MAX_HEADER_CONDITION_VALUE}`,
    };
  }
  const conditions = conditionCount({ method: match.method, headers, queryParams });
  if (conditions > MAX_CONDITIONS_PER_RULE) {
    return {
      ok: false,
      problem: `a match with ${conditions} method, header and query parameter conditions; an AFD rule takes at most ${MAX_CONDITIONS_PER_RULE}`,
    };
  }
  return { ok: true, value: { path: { type, value: type === 'PathPrefix' ? normalizePrefix(value) : value }, method: match.method, headers, queryParams } };
}
