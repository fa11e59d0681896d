import { compileAction, redirectLocation, rewritePath, type ForwardingProtocol, type HeaderEdit, type RuleActionEntry } from './rule-actions.js';
import { compileCondition, type ConditionBody, type ConditionPredicate, type RuleRequest } from './rule-conditions.js';

/** A rule as the edge runs it: conditions compiled, actions normalised. */
export interface CompiledRule {
  name: string;
  conditions: ConditionPredicate[];
  actions: RuleActionEntry[];
  stop: boolean;
}

export interface RuleBody {
  order?: unknown;
  conditions?: ConditionBody[];
  actions?: Array<{ name?: unknown; parameters?: Record<string, unknown> }>;
  matchProcessingBehavior?: unknown;
}

/**
 * The rules of one rule set in `order`; a route's rule sets run in the order the route lists them (A62).
 * matchProcessingBehavior defaults to Continue (afdx.json).
 */
export function compileRuleSet(rules: ReadonlyArray<{ name: string; properties: RuleBody }>): CompiledRule[] {
  return [...rules]
    .sort((a, b) => Number(a.properties.order ?? 0) - Number(b.properties.order ?? 0))
    .map(({ name, properties }) => ({
      name,
      conditions: (properties.conditions ?? []).map(compileCondition),
      actions: (properties.actions ?? []).flatMap(compileAction),
      stop: properties.matchProcessingBehavior === 'Stop',
    }));
}

/** What the rules decided for one request; the edge applies it. */
export interface RuleDecision {
  /** The rules whose conditions all held, in evaluation order. */
  matched: string[];
  /** The origin group a RouteConfigurationOverride chose (lower-cased key), else the route's. */
  originGroupKey?: string;
  forwardingProtocol?: ForwardingProtocol;
  /** Answer at the edge instead of forwarding. */
  redirect?: { status: number; location: string };
  /** The path to forward, before the route's originPath takes the place of the part its pattern fixes. */
  path: string;
  requestHeaders: HeaderEdit[];
  responseHeaders: HeaderEdit[];
}

/**
 * Runs the route's rules over a request (pure). Every condition sees the request as the client sent it, not as
 * earlier rules rewrote it; a rule matches when all its conditions hold (none: always). Later actions of a kind win
 * over earlier ones (override, redirect), rewrites chain, header edits accumulate in order; Stop ends the evaluation
 * after the rule that carries it. Assumptions A62–A64.
 */
export function evaluateRules(rules: readonly CompiledRule[], request: RuleRequest, routePrefixLength: number): RuleDecision {
  const decision: RuleDecision = { matched: [], path: request.path, requestHeaders: [], responseHeaders: [] };
  let redirect: Extract<RuleActionEntry, { kind: 'redirect' }> | undefined;
  for (const rule of rules) {
    if (!rule.conditions.every((condition) => condition(request))) continue;
    decision.matched.push(rule.name);
    for (const action of rule.actions) {
      switch (action.kind) {
        case 'override':
          if (action.originGroupKey !== undefined) decision.originGroupKey = action.originGroupKey;
          if (action.forwardingProtocol !== undefined) decision.forwardingProtocol = action.forwardingProtocol;
          break;
        case 'redirect':
          redirect = action;
          break;
        case 'rewrite':
          decision.path = rewritePath(decision.path, routePrefixLength, action) ?? decision.path;
          break;
        case 'requestHeader':
          decision.requestHeaders.push(action.edit);
          break;
        case 'responseHeader':
          decision.responseHeaders.push(action.edit);
          break;
      }
    }
    if (rule.stop) break;
  }
  if (redirect !== undefined) decision.redirect = { status: redirect.status, location: redirectLocation(redirect, request) };
  return decision;
}
