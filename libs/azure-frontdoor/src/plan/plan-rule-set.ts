import type { GlobalGateway, RoutingCandidate } from '@fleet-gateway/model';
import { ruleName } from './afd-names.js';
import { corsRules } from './cors-rules.js';
import { candidateFilters, ruleSource } from './model-lookup.js';
import { withPlannedRewrite, type PathRewrite } from './path-rewrite.js';
import { ruleKey, type PlannedGroup } from './plan-origin-groups.js';
import { actionsOfFilters, chunkActions, conditionsOf } from './rule-translation.js';
import type { RuleAction, RuleCondition, RuleSetSpec, RuleSpec } from './spec-types.js';

/** What a rule set is planned from: the part of the route planner's context it reads. */
export interface RuleSetContext {
  readonly model: GlobalGateway;
  readonly profile: string;
  readonly groupOfRule: ReadonlyMap<string, PlannedGroup>;
}

export interface PlannedRuleSet {
  readonly ruleSet: RuleSetSpec;
  readonly rules: readonly RuleSpec[];
}

/**
 * The rules engine part of one route decision: each conditional candidate, in precedence order, sends matching
 * requests to its own origin group (route configuration override) with its filters and stops; the unconditional
 * candidate's filters apply to the rest. A CORS filter's rules come just before its candidate's, with the candidate's
 * conditions and their own, and continue. Orders start at 1 (AFD gives order 0 a special meaning). With a path rewrite,
 * each candidate's rule carries the rewrite planned for it instead of its filter's.
 */
export function planRuleSet(
  context: RuleSetContext,
  candidates: readonly RoutingCandidate[],
  name: string,
  pathRewrite?: PathRewrite,
): PlannedRuleSet | undefined {
  const rules: RuleSpec[] = [];
  const add = (candidate: RoutingCandidate, conditions: readonly RuleCondition[], actions: readonly RuleAction[], stop: boolean): void => {
    const chunks = chunkActions(actions);
    chunks.forEach((chunk, i) => {
      const order = rules.length + 1;
      rules.push({
        ref: { kind: 'rule', profile: context.profile, ruleSet: name, rule: ruleName(`${name}#${order}`) },
        order,
        conditions,
        actions: chunk,
        matchProcessingBehavior: stop && i === chunks.length - 1 ? 'Stop' : 'Continue',
        provenance: [ruleSource(context.model, candidate)],
      });
    });
  };
  candidates.forEach((candidate, i) => {
    const { filters, match } = candidateFilters(context.model, candidate);
    const translated = actionsOfFilters(filters, match);
    const filterActions = pathRewrite ? withPlannedRewrite(translated, pathRewrite.rewrites[i]) : translated;
    const last = i === candidates.length - 1;
    const conditions = last ? [] : conditionsOf(candidate);
    for (const filter of filters) {
      if (filter.type !== 'CORS') continue;
      for (const rule of corsRules(filter)) add(candidate, [...conditions, ...rule.conditions], rule.actions, false);
    }
    if (last) {
      add(candidate, [], filterActions, false);
      return;
    }
    const group = context.groupOfRule.get(ruleKey(candidate)) as PlannedGroup;
    const redirects = filterActions.some((a) => a.type === 'redirect');
    const override: RuleAction[] = redirects ? [] : [{ type: 'originGroupOverride', originGroup: group.name, forwardingProtocol: group.forwardingProtocol }];
    add(candidate, conditions, [...override, ...filterActions], true);
  });
  if (rules.length === 0) return undefined;
  return {
    ruleSet: {
      ref: { kind: 'ruleSet', profile: context.profile, ruleSet: name },
      provenance: [...new Map(rules.flatMap((r) => r.provenance).map((s) => [JSON.stringify(s), s])).values()],
    },
    rules,
  };
}
