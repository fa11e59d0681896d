import { isIP } from 'node:net';

/**
 * Domain names as Microsoft.Cdn's model validation spells them (its error quotes the pattern: dot-separated labels of
 * letters, digits, `_` and `-`, each starting and ending with a letter or digit, the last without `_`).
 */
const DOMAIN_NAME = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9_-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])$/;

/** Whether AFD takes the address as an origin `hostName`: "Domain names, IPv4 addresses, and IPv6 addresses are supported". */
export function isOriginAddress(address: string): boolean {
  return isIP(address) !== 0 || DOMAIN_NAME.test(address);
}
