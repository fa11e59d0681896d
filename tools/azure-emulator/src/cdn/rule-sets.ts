import { badRequest } from '../arm/errors.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import { conditionProblem, type ConditionBody } from '../edge/rule-conditions.js';
import { ruleValueProblem } from './rule-values.js';
import { overrideReferencesOf, requireUsableGroup } from './origin-group-usage.js';
import { AFD, afdChildKind, enforceProfileLimit, limitFor, profileKeyOf, profileOf, referenceKey, refuseDeleteWhileReferenced } from './afd-common.js';

/** Microsoft.Cdn/profiles/ruleSets: RuleSets_Create takes no body and is synchronous; there is no PATCH. */
export const ruleSetKind = afdChildKind({
  types: ['profiles', 'ruleSets'],
  definition: 'RuleSet',
  putSchema: null,
  lro: { put: false, patch: false, delete: true },
  check(request, context) {
    enforceProfileLimit(request, context, AFD.ruleSet, context.limits.afd.ruleSetsPerProfile, 'rule sets per profile');
  },
  checkDelete(record, context) {
    refuseDeleteWhileReferenced(record, context, AFD.route, ruleSetsOfRoute);
  },
});

/**
 * Microsoft.Cdn/profiles/ruleSets/rules. A new rule counts against every route that uses its rule set; a
 * RouteConfigurationOverride may only name an origin group of the profile that has an enabled origin.
 */
export const ruleKind = afdChildKind({
  types: ['profiles', 'ruleSets', 'rules'],
  definition: 'Rule',
  updateDefinition: 'RuleUpdateParameters',
  check(request, context) {
    const tooLarge = ruleValueProblem(request.body.properties, context.limits.afd);
    if (tooLarge !== undefined) throw badRequest(tooLarge);
    ((request.body.properties.conditions as ConditionBody[] | undefined) ?? []).forEach((condition, i) => {
      const problem = conditionProblem(condition);
      if (problem !== undefined) throw badRequest(`'properties.conditions[${i}].parameters.matchValues' is invalid: ${problem}.`);
    });
    for (const { group, field } of overrideReferencesOf(request.body.properties)) requireUsableGroup(group, field, request, context);
    enforceProfileLimit(request, context, AFD.rule, context.limits.afd.rulesPerRuleSet, 'rules per rule set', request.parent?.key);
    if (request.existing !== undefined) return;
    const ruleSetKey = (request.parent as ResourceRecord).key;
    const max = limitFor(context.limits.afd.rulesPerRoute, profileOf(request, context));
    for (const route of context.store.ofKind(AFD.route, profileKeyOf(request.path))) {
      const ruleSets = ruleSetsOfRoute(route.body.properties);
      if (!ruleSets.some((ruleSet) => referenceKey(ruleSet) === ruleSetKey)) continue;
      const rules = rulesOf(ruleSets, context) + 1;
      if (rules > max) throw badRequest(`Limit reached: route '${route.name}' would have ${rules} rules across its rule sets; the maximum is ${max}.`);
    }
  },
  render: (record) => withTransforms(record.body.properties),
});

/** Azure returns every condition with its `transforms`, an empty list when none were sent. */
function withTransforms(properties: Record<string, unknown>): Record<string, unknown> {
  const conditions = (properties.conditions as Array<{ parameters?: Record<string, unknown> }> | undefined) ?? [];
  return { conditions: conditions.map((condition) => ({ ...condition, parameters: { transforms: [], ...condition.parameters } })) };
}

export function ruleSetsOfRoute(properties: Record<string, unknown>): unknown[] {
  return (properties.ruleSets as unknown[] | undefined) ?? [];
}

/** How many rules the referenced rule sets hold together. */
export function rulesOf(ruleSets: readonly unknown[], context: EmulatorContext): number {
  return ruleSets.reduce<number>((sum, ruleSet) => {
    const key = referenceKey(ruleSet);
    return key === undefined ? sum : sum + context.store.ofKind(AFD.rule, key).length;
  }, 0);
}
