import { isIP } from 'node:net';

/**
 * The domain names Microsoft.Cdn accepts as an origin's address, as its model error quotes the pattern
 * (hashicorp/terraform-provider-azurerm#8870, #6550): dot-separated labels of letters, digits, `_` and `-`, each
 * starting and ending with a letter or digit, the last without `_`.
 */
const DOMAIN_NAME = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9_-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])$/;

/** Why AFD would refuse an origin's `hostName` (afdx.json: "Domain names, IPv4 addresses, and IPv6 addresses are supported"; A77), or undefined. */
export function originHostNameProblem(hostName: unknown): string | undefined {
  if (typeof hostName === 'string' && (isIP(hostName) !== 0 || DOMAIN_NAME.test(hostName))) return undefined;
  return `HostName ${JSON.stringify(hostName ?? null)} is invalid. It must be a valid domain name, IP version 4, or IP version 6.`;
}
