import { randomBytes } from 'node:crypto';
import { badRequest, conflict } from '../arm/errors.js';
import { responseIdOf } from '../arm/kind.js';
import type { WriteRequest } from '../arm/kind.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import { AFD, afdChildKind, enforceProfileLimit, profileKeyOf, refuseDeleteWhileReferenced, requireReference } from './afd-common.js';

const VALIDITY_MS = 7 * 24 * 3600 * 1000;
/** The longest host name an AFD-managed certificate can be issued for (a certificate's common name, A71). */
const MANAGED_CERTIFICATE_MAX_HOST = 64;

/** A fresh DNS TXT challenge valid for 7 days, which is what a domain shows once Azure has submitted it (A72). */
function issueValidationToken(record: ResourceRecord, context: EmulatorContext): void {
  record.internal.validationState = 'Pending';
  record.internal.validationToken = randomBytes(16).toString('hex');
  record.internal.validationExpires = new Date(context.now() + VALIDITY_MS).toISOString();
}

/**
 * A fully qualified domain name of at least two labels, the first of which may be `*`, each label letters, digits and
 * inner hyphens, at most 63 characters, 253 in all (A79: the rule terraform-provider-azurerm checks before it calls
 * Azure, validate/front_door_custom_domain_host_name.go; Azure's own answer is not published).
 */
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const CUSTOM_DOMAIN_HOST = new RegExp(`^(?:\\*|${LABEL})(?:\\.${LABEL})+$`);
const MAX_HOST_NAME = 253;

function checkHostName(hostName: string): void {
  if (hostName.length <= MAX_HOST_NAME && CUSTOM_DOMAIN_HOST.test(hostName)) return;
  throw badRequest(
    `'properties.hostName' '${hostName}' is not a valid domain name: expected a fully qualified domain name of at least two labels (the first may be '*'), each of letters, digits and inner hyphens and at most 63 characters, 253 in all.`,
  );
}

function checkTlsSettings(request: WriteRequest, hostName: string): void {
  const tlsSettings = request.body.properties.tlsSettings as { certificateType?: string; minimumTlsVersion?: string } | undefined;
  // Front Door has refused TLS 1.0/1.1 minimums since 1 March 2025 (A70).
  if (tlsSettings?.minimumTlsVersion === 'TLS10') {
    throw badRequest(
      "'properties.tlsSettings.minimumTlsVersion' 'TLS10' is no longer supported: TLS 1.0 and 1.1 minimum versions are disallowed on Azure Front Door; use 'TLS12'.",
    );
  }
  if ((tlsSettings?.certificateType ?? 'ManagedCertificate') === 'ManagedCertificate' && hostName.length > MANAGED_CERTIFICATE_MAX_HOST) {
    throw badRequest(
      `Host name '${hostName}' is ${hostName.length} characters long; an AFD managed certificate supports at most ${MANAGED_CERTIFICATE_MAX_HOST}. Use 'CustomerCertificate'.`,
    );
  }
}

/** Host names AFD keeps in one profile: the same host, or a wildcard domain and one of its first-level subdomains (A81). */
function overlap(a: string, b: string): boolean {
  if (a === b) return true;
  const [wildcard, other] = a.startsWith('*.') ? [a, b] : [b, a];
  if (!wildcard.startsWith('*.') || other.startsWith('*.')) return false;
  const dot = other.indexOf('.');
  return dot > 0 && other.slice(dot) === wildcard.slice(1);
}

/** A validated custom domain of another profile (of any subscription) that keeps `hostName` from this one (A80). */
function validatedElsewhere(request: WriteRequest, context: EmulatorContext, hostName: string): ResourceRecord | undefined {
  const profile = profileKeyOf(request.path);
  return context.store
    .ofKind(AFD.customDomain)
    .find(
      (domain) =>
        domain.internal.validationState === 'Approved' &&
        profileKeyOf(domain.path) !== profile &&
        overlap(String(domain.body.properties.hostName).toLowerCase(), hostName),
    );
}

/**
 * Microsoft.Cdn/profiles/customDomains. A domain is `Submitting` with an empty token while its PUT runs, then
 * `Pending` with a DNS TXT token. DNS validation never happens on its own here: the admin API sets the state
 * (`Approved`, or any other of the spec's states), the way a DNS TXT record and DigiCert would on Azure.
 */
export const customDomainKind = afdChildKind({
  types: ['profiles', 'customDomains'],
  definition: 'AFDDomain',
  updateDefinition: 'AFDDomainUpdateParameters',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.customDomain, context.limits.afd.customDomainsPerProfile, 'custom domains per profile');
    const hostName = String(request.body.properties.hostName).toLowerCase();
    checkHostName(hostName);
    const previous = request.existing?.body.properties.hostName;
    if (typeof previous === 'string' && previous.toLowerCase() !== hostName) {
      throw badRequest(`'properties.hostName' of custom domain '${request.existing?.name}' cannot change from '${previous}' to '${hostName}'.`);
    }
    const duplicate = context.store
      .ofKind(AFD.customDomain, profileKeyOf(request.path))
      .find((domain) => domain.key !== request.key && String(domain.body.properties.hostName).toLowerCase() === hostName);
    if (duplicate !== undefined) throw conflict(`Host name '${hostName}' is already used by custom domain '${duplicate.name}'.`);
    if (request.existing === undefined && validatedElsewhere(request, context, hostName) !== undefined) {
      throw conflict("We couldn't create your custom domain. Another custom domain with the same host name already exists.");
    }
    const secret = (request.body.properties.tlsSettings as { secret?: unknown } | undefined)?.secret;
    if (secret !== undefined) requireReference(secret, 'properties.tlsSettings.secret', AFD.secret, request, context);
    checkTlsSettings(request, hostName);
  },
  prepare(record) {
    if (record.internal.validationState !== undefined) return;
    record.internal.validationState = 'Submitting';
    record.internal.validationToken = '';
  },
  onProvisioned(record, context) {
    if (record.internal.validationState === 'Submitting') issueValidationToken(record, context);
  },
  actions: {
    // AFDCustomDomains_RefreshValidationToken: a new token (and expiry) for a domain not validated yet.
    refreshvalidationtoken: {
      start(record) {
        record.internal.validationState = 'RefreshingValidationToken';
      },
      complete: issueValidationToken,
    },
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
        ? {
            tlsSettings: {
              ...tlsSettings,
              secret: {
                id: responseIdOf(
                  { ...record.path, types: ['profiles', 'secrets'], names: [record.path.names[0] as string, `${record.name}-managed`] },
                  customDomainKind,
                ),
              },
            },
          }
        : {};
    return {
      ...managedSecret,
      domainValidationState: record.internal.validationState,
      validationProperties: {
        validationToken: record.internal.validationToken,
        ...(record.internal.validationExpires === undefined ? {} : { expirationDate: record.internal.validationExpires }),
      },
    };
  },
});

/** Every domain reference in a security policy's WAF associations. */
export function associatedDomains(properties: Record<string, unknown>): unknown[] {
  const parameters = properties.parameters as { associations?: Array<{ domains?: unknown[] }> } | undefined;
  return (parameters?.associations ?? []).flatMap((association) => association.domains ?? []);
}
