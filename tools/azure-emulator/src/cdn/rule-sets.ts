import { AFD, afdChildKind, enforceProfileLimit, refuseDeleteWhileReferenced } from './afd-common.js';

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
    refuseDeleteWhileReferenced(record, context, AFD.route, (properties) => (properties.ruleSets as unknown[] | undefined) ?? []);
  },
  render(record) {
    return { profileName: record.path.names[0] };
  },
});

/** Microsoft.Cdn/profiles/ruleSets/rules. */
export const ruleKind = afdChildKind({
  types: ['profiles', 'ruleSets', 'rules'],
  definition: 'Rule',
  updateDefinition: 'RuleUpdateParameters',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.rule, context.limits.afd.rulesPerRuleSet, 'rules per rule set', request.parent?.key);
  },
  render(record) {
    return { ruleSetName: record.path.names[1] };
  },
});
