import type { AFDDomain } from '@azure/arm-cdn';
import { getDomain } from 'tldts';
import type { CustomDomainSpec } from '../plan/spec-types.js';

/** Where one custom domain stands with AFD's DNS validation, and what the operator must do. */
export interface CustomDomainReport {
  readonly name: string;
  readonly hostName: string;
  /** The Gateway listeners whose hostnames the domain serves. */
  readonly listeners: readonly string[];
  /** AFD's domainValidationState; `NotCreated` before the domain exists. */
  readonly validationState: string;
  readonly validationToken?: string;
  readonly expirationDate?: string;
  /** Approved: AFD serves the host (with its managed certificate). */
  readonly validated: boolean;
  readonly message: string;
}

/** A token this close to its expiry (or past it, `TimedOut`) is replaced by AFD's refreshValidationToken. */
export const TOKEN_REFRESH_AHEAD_MS = 24 * 3600 * 1000;

/**
 * An apex (zone root) cannot take a CNAME: it needs an alias record (Azure DNS) or CNAME flattening. The apex is the
 * registrable domain, one label under a public suffix — contoso.com, and contoso.co.uk, not www.contoso.co.uk — so
 * it is read from the Public Suffix List (tldts), not from the number of labels.
 */
export function isApex(hostName: string): boolean {
  return !hostName.startsWith('*.') && getDomain(hostName) === hostName.toLowerCase();
}

/** The TXT record AFD validates: `_dnsauth.<host>`, a wildcard's `*.` left out. */
export function validationRecordName(hostName: string): string {
  return `_dnsauth.${hostName.replace(/^\*\./, '')}`;
}

/** The records the operator creates: the TXT with the token, and the CNAME (or, for an apex, the alias) to the endpoint. */
export function dnsInstructions(hostName: string, token: string, expirationDate: string | undefined, endpointHostName: string | undefined): string {
  const target = endpointHostName ?? "the endpoint's hostname (status.addresses)";
  const traffic = isApex(hostName)
    ? `an alias record (Azure DNS) or a flattened CNAME for the apex ${hostName} to ${target} (an apex cannot take a CNAME)`
    : `a CNAME record ${hostName} -> ${target}`;
  const expiry = expirationDate ? ` (token expires ${expirationDate}; the hub asks AFD for a new one a day before)` : '';
  return `create DNS TXT record ${validationRecordName(hostName)} with value "${token}"${expiry} and ${traffic}`;
}

function stateMessage(spec: CustomDomainSpec, arm: AFDDomain | undefined, endpointHostName: string | undefined): string {
  const host = spec.hostName;
  const state = arm?.domainValidationState ?? 'NotCreated';
  const token = arm?.validationProperties?.validationToken ?? '';
  const records = dnsInstructions(host, token, arm?.validationProperties?.expirationDate, endpointHostName);
  const domain = `custom domain ${spec.ref.customDomain} (${host})`;
  const meanwhile = "; until then AFD does not serve it (the endpoint's own hostname keeps serving)";
  switch (state) {
    case 'Approved':
      return `${domain} is validated; AFD serves it with a managed certificate`;
    case 'NotCreated':
      return `${domain} is not created yet${meanwhile}`;
    case 'Submitting':
      return `${domain} is being submitted to AFD; its validation token is not issued yet${meanwhile}`;
    case 'Pending':
      return `${domain} is pending validation: ${records}${meanwhile}`;
    case 'PendingRevalidation':
      return `${domain} must be revalidated (managed certificate renewal): keep or recreate the records: ${records}`;
    case 'RefreshingValidationToken':
      return `${domain}: AFD is issuing a new validation token; the TXT record ${validationRecordName(host)} must then get the new value${meanwhile}`;
    case 'TimedOut':
      return `${domain}: validation timed out (no matching TXT record before the token expired); the hub asks AFD for a new token, then ${records}${meanwhile}`;
    case 'Rejected':
      return `${domain}: the certificate authority rejected the domain (check CAA records and that the domain is yours); remove the hostname and add it again once fixed${meanwhile}`;
    case 'InternalError':
      return `${domain}: AFD reports an internal error validating the domain; AFD retries, and the hub looks again${meanwhile}`;
    default:
      return `${domain}: AFD reports validation state ${state}${meanwhile}`;
  }
}

/** Every planned custom domain with its validation state and the operator's next step (pure). */
export function reportCustomDomains(
  specs: readonly CustomDomainSpec[],
  armOf: (name: string) => AFDDomain | undefined,
  endpointHostName: string | undefined,
): CustomDomainReport[] {
  return specs.map((spec) => {
    const arm = armOf(spec.ref.customDomain);
    const state = arm?.domainValidationState ?? 'NotCreated';
    const token = arm?.validationProperties?.validationToken;
    const expires = arm?.validationProperties?.expirationDate;
    return {
      name: spec.ref.customDomain,
      hostName: spec.hostName,
      listeners: [...new Set(spec.provenance.flatMap((p) => (p.kind === 'Gateway' && p.section ? [p.section] : [])))],
      validationState: state,
      ...(token ? { validationToken: token } : {}),
      ...(expires ? { expirationDate: expires } : {}),
      validated: state === 'Approved',
      message: stateMessage(spec, arm, endpointHostName),
    };
  });
}

/** Domains whose token has run out (`TimedOut`) or is about to, while they still wait for validation. */
export function domainsNeedingNewToken(domains: readonly { name: string; arm: AFDDomain }[], nowMs: number): string[] {
  return domains
    .filter(({ arm }) => {
      const state = arm.domainValidationState;
      if (state === 'TimedOut') return true;
      if (state !== 'Pending' && state !== 'PendingRevalidation') return false;
      const expires = Date.parse(arm.validationProperties?.expirationDate ?? '');
      return Number.isFinite(expires) && expires - nowMs <= TOKEN_REFRESH_AHEAD_MS;
    })
    .map(({ name }) => name);
}
