import { randomBytes } from 'node:crypto';
import { badRequest, conflict } from '../arm/errors.js';
import { responseIdOf } from '../arm/kind.js';
import { AFD, afdChildKind, enforceProfileLimit, profileKeyOf, refuseDeleteWhileReferenced, requireReference } from './afd-common.js';

const VALIDITY_MS = 7 * 24 * 3600 * 1000;

/**
 * Microsoft.Cdn/profiles/customDomains. DNS validation never happens on its own here: the domain stays Pending
 * until the admin API marks it validated (Approved), the way a DNS TXT record would on Azure.
 */
export const customDomainKind = afdChildKind({
  types: ['profiles', 'customDomains'],
  definition: 'AFDDomain',
  updateDefinition: 'AFDDomainUpdateParameters',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.customDomain, context.limits.afd.customDomainsPerProfile, 'custom domains per profile');
    const hostName = String(request.body.properties.hostName).toLowerCase();
    const previous = request.existing?.body.properties.hostName;
    if (typeof previous === 'string' && previous.toLowerCase() !== hostName) {
      throw badRequest(`'properties.hostName' of custom domain '${request.existing?.name}' cannot change from '${previous}' to '${hostName}'.`);
    }
    const duplicate = context.store
      .ofKind(AFD.customDomain, profileKeyOf(request.path))
      .find((domain) => domain.key !== request.key && String(domain.body.properties.hostName).toLowerCase() === hostName);
    if (duplicate !== undefined) throw conflict(`Host name '${hostName}' is already used by custom domain '${duplicate.name}'.`);
    const secret = (request.body.properties.tlsSettings as { secret?: unknown } | undefined)?.secret;
    if (secret !== undefined) requireReference(secret, 'properties.tlsSettings.secret', AFD.secret, request, context);
  },
  prepare(record, _request, context) {
    if (record.internal.validationState !== undefined) return;
    record.internal.validationState = 'Pending';
    record.internal.validationToken = randomBytes(16).toString('hex');
    record.internal.validationExpires = new Date(context.now() + VALIDITY_MS).toISOString();
  },
  checkDelete(record, context) {
    refuseDeleteWhileReferenced(record, context, AFD.route, (properties) => (properties.customDomains as unknown[] | undefined) ?? []);
    refuseDeleteWhileReferenced(record, context, AFD.securityPolicy, associatedDomains);
  },
  render(record) {
    // A managed certificate lives in a secret AFD creates and names in the domain's TLS settings.
    const tlsSettings = record.body.properties.tlsSettings as { certificateType?: string; secret?: unknown } | undefined;
    const managedSecret =
      tlsSettings?.certificateType === 'ManagedCertificate' && tlsSettings.secret === undefined
        ? { tlsSettings: { ...tlsSettings, secret: { id: responseIdOf({ ...record.path, types: ['profiles', 'secrets'], names: [record.path.names[0] as string, `${record.name}-managed`] }, customDomainKind) } } }
        : {};
    return {
      ...managedSecret,
      domainValidationState: record.internal.validationState,
      validationProperties: { validationToken: record.internal.validationToken, expirationDate: record.internal.validationExpires },
    };
  },
});

/** Every domain reference in a security policy's WAF associations. */
export function associatedDomains(properties: Record<string, unknown>): unknown[] {
  const parameters = properties.parameters as { associations?: Array<{ domains?: unknown[] }> } | undefined;
  return (parameters?.associations ?? []).flatMap((association) => association.domains ?? []);
}
