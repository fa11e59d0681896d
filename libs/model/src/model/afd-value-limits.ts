/**
 * AFD's documented limits on values a user writes in one object, checked in resolve so that only that object's rule
 * or hostname is left out (tools/azure-emulator's fidelity ledger names each source; the emulator refuses them too).
 */

/** An AFD-managed certificate covers host names of at most 64 characters (terraform-provider-azurerm#32738, #32730). */
export const MANAGED_CERTIFICATE_MAX_HOST = 64;

/** Rules engine: "You can add up to 10 conditions and 5 actions for one rule" (how-to-configure-rule-set). */
export const MAX_CONDITIONS_PER_RULE = 10;

/** Front Door limits, other limits: "Maximum rules engine condition header value character: 256 characters". */
export const MAX_HEADER_CONDITION_VALUE = 256;

/** Front Door limits, other limits: "Maximum rules engine action header value character: 640 characters". */
export const MAX_HEADER_ACTION_VALUE = 640;

/** A custom domain's labels, as DNS has them (RFC 1035; terraform-provider-azurerm#32349 checks the same). */
const MAX_LABEL = 63;

/** Why AFD cannot issue a managed certificate for a custom domain of this host name, or undefined. */
export function managedCertificateHostProblem(hostname: string): string | undefined {
  if (hostname.length <= MANAGED_CERTIFICATE_MAX_HOST) return undefined;
  return `AFD-managed certificates cover host names of at most ${MANAGED_CERTIFICATE_MAX_HOST} characters; ${hostname} has ${hostname.length}`;
}

/**
 * Why AFD cannot serve this host name as a custom domain with a managed certificate, or undefined. The CRD already
 * limits the characters; it allows a single label and labels over 63 characters, which a custom domain cannot have
 * (an FQDN of at least two labels: terraform-provider-azurerm#32349).
 */
export function customDomainHostProblem(hostname: string): string | undefined {
  const labels = hostname.split('.');
  if (labels.length < 2) return `AFD custom domains are fully qualified domain names of at least two labels; ${hostname} has one`;
  const long = labels.find((l) => l.length > MAX_LABEL);
  if (long) return `AFD custom domains have labels of at most ${MAX_LABEL} characters; ${long} in ${hostname} has ${long.length}`;
  return managedCertificateHostProblem(hostname);
}
