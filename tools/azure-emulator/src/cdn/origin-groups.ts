import { AFD, afdChildKind, enforceProfileLimit, refuseDeleteWhileReferenced } from './afd-common.js';

/** Microsoft.Cdn/profiles/originGroups. A group a route still uses cannot be deleted (assumption, see README). */
export const originGroupKind = afdChildKind({
  types: ['profiles', 'originGroups'],
  definition: 'AFDOriginGroup',
  updateDefinition: 'AFDOriginGroupUpdateParameters',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.originGroup, context.limits.afd.originGroupsPerProfile, 'origin groups per profile');
  },
  checkDelete(record, context) {
    refuseDeleteWhileReferenced(record, context, AFD.route, (properties) => [properties.originGroup]);
  },
});
