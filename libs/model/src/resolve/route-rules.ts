import type { HTTPRoute, HTTPRouteRule } from '@fleet-gateway/api-types';
import type { ModelFilter, ModelMatch } from '../model/model-types.js';
import { convertFilter } from './rule-filters.js';
import { MAX_CONDITIONS_PER_RULE } from '../model/afd-value-limits.js';
import { CORS_RULE_CONDITIONS } from './cors-filter.js';
import { conditionCount, convertMatch, type Converted } from './rule-matches.js';
import { timeoutProblem } from './rule-timeouts.js';

export interface ConvertedRule {
  readonly index: number;
  readonly rule: HTTPRouteRule;
  readonly matches: readonly ModelMatch[];
  readonly filters: readonly ModelFilter[];
  /** Set when the rule is dropped: everything in it that AFD cannot express. */
  readonly problems: readonly string[];
}

/** The CRD's default when a route has no rules field, and a rule's default when it has no matches. */
const DEFAULT_RULES: readonly HTTPRouteRule[] = [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }];

function collect<T>(items: readonly Converted<T>[], problems: string[]): T[] {
  const values: T[] = [];
  for (const item of items) {
    if (item.ok) values.push(item.value);
    else problems.push(item.problem);
  }
  return values;
}

function routeRules(route: HTTPRoute): readonly HTTPRouteRule[] {
  return route.spec.rules ?? DEFAULT_RULES;
}

/** Converts every rule of a route; a rule with any unsupported part is dropped whole, never partly applied. */
export function convertRules(route: HTTPRoute, profileTimeoutSeconds: number | undefined): ConvertedRule[] {
  return routeRules(route).map((rule, index) => {
    const problems: string[] = [];
    const rawMatches = rule.matches && rule.matches.length > 0 ? rule.matches : [{}];
    const matches = collect(rawMatches.map(convertMatch), problems);
    const filters = collect((rule.filters ?? []).map(convertFilter), problems);
    if ((rule.backendRefs ?? []).some((ref) => (ref.filters ?? []).length > 0)) {
      problems.push('filters on backendRefs are not supported (AFD applies rules per route, not per origin group)');
    }
    const crowded = filters.some((f) => f.type === 'CORS')
      ? matches.find((m) => conditionCount(m) + CORS_RULE_CONDITIONS > MAX_CONDITIONS_PER_RULE)
      : undefined;
    if (crowded) {
      problems.push(
        `CORS filter: a match with ${conditionCount(crowded)} method, header and query parameter conditions leaves no room for the ${CORS_RULE_CONDITIONS} CORS conditions; an AFD rule takes at most ${MAX_CONDITIONS_PER_RULE}`,
      );
    }
    const timeout = timeoutProblem(rule, profileTimeoutSeconds);
    if (timeout) problems.push(timeout);
    return { index, rule, matches, filters, problems };
  });
}
