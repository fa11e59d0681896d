import type { CorsPolicy } from '@fleet-gateway/model';
import type { RuleAction, RuleCondition } from './spec-types.js';

/** Conditions and actions of one rule a CORS filter adds in front of its match's own rule (both Continue). */
export interface CorsRule {
  readonly conditions: readonly RuleCondition[];
  readonly actions: readonly RuleAction[];
}

const respond = (name: string, value: string): RuleAction => ({ type: 'responseHeader', action: 'Overwrite', name, value });

/**
 * The request's `Origin` is one the policy allows, as alternative conditions (match values ORed within each): exact
 * origins and wildcard patterns take different operators, and a rule's conditions are ANDed, so a rule that applies
 * to any allowed origin is repeated per alternative.
 */
function allowedOrigins(policy: CorsPolicy): RuleCondition[] {
  if (policy.anyOrigin) return [{ type: 'headerMatch', name: 'Origin', operator: 'Any', values: [] }];
  return [
    ...(policy.exactOrigins.length === 0 ? [] : [{ type: 'headerMatch' as const, name: 'Origin', operator: 'Equal' as const, values: policy.exactOrigins }]),
    ...(policy.wildcardOrigins.length === 0
      ? []
      : [{ type: 'headerMatch' as const, name: 'Origin', operator: 'RegEx' as const, values: policy.wildcardOrigins }]),
  ];
}

/**
 * A CORS filter as AFD rules, following Microsoft's advice for several origins (Front Door CORS page, "Azure Front
 * Door rule set"): rules check the request's `Origin` and set `Access-Control-Allow-Origin` themselves, one rule per
 * echoed origin since header actions take literal values; the origin's own header is overwritten. Wildcard origins
 * get `*` (resolve refuses them with credentials). `Vary: Origin` goes on every response of the match, appended with
 * its own `, ` since AFD's Append adds no delimiter (an empty list element is valid HTTP). A preflight (OPTIONS with
 * `Access-Control-Request-Method`) still reaches the backend, which must answer it with a 2xx: AFD's rules engine
 * cannot answer a request itself except with a redirect. Routes never cache, so no cached response carries another
 * origin's header.
 */
export function corsRules(policy: CorsPolicy): CorsRule[] {
  const allowed = allowedOrigins(policy);
  const rules: CorsRule[] = [];
  if (policy.exactOrigins.length > 0) rules.push({ conditions: [], actions: [{ type: 'responseHeader', action: 'Append', name: 'Vary', value: ', Origin' }] });
  for (const origin of allowed.filter((c) => c.type === 'headerMatch' && c.operator !== 'Equal')) {
    rules.push({ conditions: [origin], actions: [respond('Access-Control-Allow-Origin', '*')] });
  }
  for (const origin of policy.exactOrigins) {
    rules.push({
      conditions: [{ type: 'headerMatch', name: 'Origin', operator: 'Equal', values: [origin] }],
      actions: [respond('Access-Control-Allow-Origin', origin)],
    });
  }
  const actual = [
    ...(policy.allowCredentials ? [respond('Access-Control-Allow-Credentials', 'true')] : []),
    ...(policy.exposeHeaders === undefined ? [] : [respond('Access-Control-Expose-Headers', policy.exposeHeaders)]),
  ];
  if (actual.length > 0) rules.push(...allowed.map((origin) => ({ conditions: [origin], actions: actual })));
  const preflight = [
    ...(policy.allowMethods === undefined ? [] : [respond('Access-Control-Allow-Methods', policy.allowMethods)]),
    ...(policy.allowHeaders === undefined ? [] : [respond('Access-Control-Allow-Headers', policy.allowHeaders)]),
    respond('Access-Control-Max-Age', String(policy.maxAge)),
  ];
  const preflightRequest: RuleCondition[] = [
    { type: 'method', method: 'OPTIONS' },
    { type: 'headerMatch', name: 'Access-Control-Request-Method', operator: 'Any', values: [] },
  ];
  rules.push(...allowed.map((origin) => ({ conditions: [origin, ...preflightRequest], actions: preflight })));
  return rules;
}
