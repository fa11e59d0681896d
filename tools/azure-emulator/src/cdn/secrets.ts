import { AFD, afdChildKind, enforceProfileLimit, refuseDeleteWhileReferenced } from './afd-common.js';

/** Microsoft.Cdn/profiles/secrets: PUT and DELETE are long-running; there is no PATCH. */
export const secretKind = afdChildKind({
  types: ['profiles', 'secrets'],
  definition: 'Secret',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.secret, context.limits.afd.secretsPerProfile, 'secrets per profile');
  },
  checkDelete(record, context) {
    refuseDeleteWhileReferenced(record, context, AFD.customDomain, (properties) => [(properties.tlsSettings as { secret?: unknown } | undefined)?.secret]);
  },
});
