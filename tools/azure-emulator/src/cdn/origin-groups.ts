import { AFD, afdChildKind, enforceProfileLimit, refuseDeleteWhileReferenced } from './afd-common.js';
import { overrideGroupsOf } from './origin-group-usage.js';

/** Microsoft.Cdn/profiles/originGroups. A group a route or a rule's override still uses cannot be deleted (A19). */
export const originGroupKind = afdChildKind({
  types: ['profiles', 'originGroups'],
  definition: 'AFDOriginGroup',
  updateDefinition: 'AFDOriginGroupUpdateParameters',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.originGroup, context.limits.afd.originGroupsPerProfile, 'origin groups per profile');
  },
  checkDelete(record, context) {
    refuseDeleteWhileReferenced(record, context, AFD.route, (properties) => [properties.originGroup]);
    refuseDeleteWhileReferenced(record, context, AFD.rule, overrideGroupsOf);
  },
});
