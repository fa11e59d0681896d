import { parseArmId } from './arm-id.js';

/** The label for a long-running operation's status and result polls (`operationStatuses`, `operationResults`). */
export const OPERATION_POLL = 'operationResults';

// The resource types the hub's clients address, spelled as the SDKs' URLs spell them: ARM answers ids and poll URLs in
// other casings (`afdendpoints`, `operationresults`), and one type must be one label.
const KNOWN_TYPES = [
  'resourceGroups',
  'profiles',
  'afdEndpoints',
  'originGroups',
  'origins',
  'routes',
  'ruleSets',
  'rules',
  'securityPolicies',
  'customDomains',
  'secrets',
  'FrontDoorWebApplicationFirewallPolicies',
];
/** Every resource type label known in advance, the polls' included (their series exist at zero). */
export const ARM_OPERATIONS: readonly string[] = [...KNOWN_TYPES, OPERATION_POLL];

const CANONICAL = new Map(KNOWN_TYPES.map((type) => [type.toLowerCase(), type]));
const POLL_TYPES = new Set(['operationresults', 'operationstatuses']);

/**
 * The ARM resource type a request URL addresses: the last type segment after the provider namespace (so a list of
 * origins and a GET of one are both `origins`, an action such as `checkHostNameAvailability` is itself), or
 * `operationResults` for the polls of a long-running operation. `other` when the path is not an ARM resource path.
 */
export function armOperationOf(url: string): string {
  const { pathname } = new URL(url, 'https://management.azure.com');
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => POLL_TYPES.has(segment.toLowerCase()))) return OPERATION_POLL;
  const id = parseArmId(pathname);
  // Below a provider the last type names the operation; without one (a resource group, or their list) the first type does.
  const type = id.provider !== undefined ? id.types.at(-1) : segments[2];
  if (type === undefined) return 'other';
  return CANONICAL.get(type.toLowerCase()) ?? type;
}
