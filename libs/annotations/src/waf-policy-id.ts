import { makeParser, type ValueParser } from './value-parser.js';

/** A parsed Front Door WAF policy resource id. `id` is the value exactly as the user wrote it. */
export interface WafPolicyId {
  readonly id: string;
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly name: string;
}

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// ARM resource group names: 1..90 of letters, digits, "-", "_", ".", "(", ")"; not ending in ".".
const RESOURCE_GROUP = /^[-\w.()]{0,89}[-\w()]$/;
// Front Door WAF policy names: a letter, then letters and digits; 128 at most (@azure/arm-frontdoor policyName).
const POLICY_NAME = /^[A-Za-z][A-Za-z0-9]{0,127}$/;

const FIXED_SEGMENTS: ReadonlyArray<[index: number, text: string]> = [
  [0, 'subscriptions'],
  [2, 'resourcegroups'],
  [4, 'providers'],
  [5, 'microsoft.network'],
  [6, 'frontdoorwebapplicationfirewallpolicies'],
];

/**
 * Exactly eight segments; segment names compare case-insensitively as ARM does; the subscription is a GUID and
 * the resource group and policy name follow ARM's naming rules.
 */
export function parseWafPolicyId(raw: string): WafPolicyId | undefined {
  if (!raw.startsWith('/')) return undefined;
  const segments = raw.slice(1).split('/');
  if (segments.length !== 8) return undefined;
  for (const [index, text] of FIXED_SEGMENTS) {
    if (segments[index]?.toLowerCase() !== text) return undefined;
  }
  const [, subscriptionId = '', , resourceGroup = '', , , , name = ''] = segments;
  if (!GUID.test(subscriptionId) || !RESOURCE_GROUP.test(resourceGroup) || !POLICY_NAME.test(name)) {
    return undefined;
  }
  return { id: raw, subscriptionId, resourceGroup, name };
}

export function wafPolicyId(): ValueParser<WafPolicyId> {
  return makeParser(
    'a resource id "/subscriptions/<GUID>/resourceGroups/<group>/providers/Microsoft.Network/' + 'frontdoorWebApplicationFirewallPolicies/<name>"',
    parseWafPolicyId,
  );
}
