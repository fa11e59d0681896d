import { ArmError, badRequest, conflict } from '../arm/errors.js';
import type { ResourceKind } from '../arm/kind.js';
import { formatArmPath, kindKeyOf, resourceKey } from '../arm/resource-id.js';
import { provisionedRecord, type ResourceRecord } from '../arm/store.js';
import { AFD, referenceKey } from '../cdn/afd-common.js';
import type { EmulatorContext } from '../emulator-context.js';

/** 2024-02-01 (@azure/arm-frontdoor 5.x) and 2025-11-01, the default of @azure/arm-frontdoor 6 (ledger A57). */
const WAF_API_VERSIONS = ['2024-02-01', '2025-11-01'];
export const WAF_POLICY_KIND_KEY = kindKeyOf('Microsoft.Network', ['frontDoorWebApplicationFirewallPolicies']);
const WAF_SKUS = ['Classic_AzureFrontDoor', 'Standard_AzureFrontDoor', 'Premium_AzureFrontDoor'];

/**
 * Microsoft.Network/frontdoorWebApplicationFirewallPolicies at the api-versions @azure/arm-frontdoor uses:
 * readable through ARM (GET, list), created and deleted only through the admin API (minimal: name, SKU, state).
 */
export const wafPolicyKind: ResourceKind = {
  provider: 'Microsoft.Network',
  types: ['frontDoorWebApplicationFirewallPolicies'],
  // Azure answers this type in lower case (assumption A4).
  responseType: 'Microsoft.Network/frontdoorwebapplicationfirewallpolicies',
  apiVersions: WAF_API_VERSIONS,
  tracked: true,
  lro: { put: false, patch: false, delete: false },
  deletable: false,
  render(record, context) {
    const links = context.store
      .ofKind(AFD.securityPolicy)
      .filter((policy) => wafPolicyKeyOf(policy) === record.key)
      .map((policy) => ({ id: policy.id }));
    return { resourceState: 'Enabled', frontendEndpointLinks: [], routingRuleLinks: [], securityPolicyLinks: links };
  },
};

export interface WafPolicySpec {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
  sku: string;
  enabledState?: 'Enabled' | 'Disabled';
  mode?: 'Prevention' | 'Detection';
  tags?: Record<string, string>;
}

const WAF_RESOURCE_GROUP_LOCATION = 'eastus';

export function createWafPolicy(spec: WafPolicySpec, context: EmulatorContext): ResourceRecord {
  if (!/^[a-zA-Z][a-zA-Z0-9]{0,127}$/.test(spec.name)) {
    throw badRequest(`'name' must start with a letter and contain only letters and digits (at most 128); got '${spec.name}'.`);
  }
  if (!WAF_SKUS.includes(spec.sku)) throw badRequest(`'sku' must be one of ${WAF_SKUS.join(', ')}; got '${spec.sku}'.`);
  const path = {
    subscriptionId: spec.subscriptionId,
    resourceGroup: spec.resourceGroup,
    provider: 'Microsoft.Network',
    types: ['frontDoorWebApplicationFirewallPolicies'],
    names: [spec.name],
  };
  const id = formatArmPath(path);
  const existing = context.store.get(resourceKey(id));
  const count = context.store.inSubscription(WAF_POLICY_KIND_KEY, spec.subscriptionId).length;
  if (existing === undefined && count >= context.limits.afd.wafPoliciesPerSubscription) {
    throw badRequest(`Limit reached: a subscription can hold at most ${context.limits.afd.wafPoliciesPerSubscription} Front Door WAF policies.`);
  }
  // The policy stands for one that exists on Azure, in a resource group that exists: make sure it does.
  if (!context.resourceGroups.has(spec.subscriptionId, spec.resourceGroup))
    context.resourceGroups.put(spec.subscriptionId, spec.resourceGroup, WAF_RESOURCE_GROUP_LOCATION);
  const body = {
    location: 'Global',
    tags: spec.tags ?? {},
    sku: { name: spec.sku },
    properties: {
      policySettings: { enabledState: spec.enabledState ?? 'Enabled', mode: spec.mode ?? 'Prevention' },
      customRules: { rules: [] },
      managedRules: { managedRuleSets: [] },
    },
  };
  // A replaced policy keeps the casing of its first id and its creation time, as ARM does.
  const record = provisionedRecord(existing?.path ?? path, WAF_POLICY_KIND_KEY, body, context.now());
  if (existing !== undefined) record.createdAt = existing.createdAt;
  context.store.put(record);
  context.store.changed();
  return record;
}

export function deleteWafPolicy(id: string, context: EmulatorContext): void {
  const record = context.store.get(resourceKey(id));
  if (record?.kindKey !== WAF_POLICY_KIND_KEY) throw new ArmError(404, 'ResourceNotFound', `WAF policy '${id}' was not found.`);
  const user = context.store.ofKind(AFD.securityPolicy).find((policy) => wafPolicyKeyOf(policy) === record.key);
  if (user !== undefined) throw conflict(`WAF policy '${record.name}' is used by security policy '${user.id}'.`);
  context.store.remove(record.key);
  context.store.changed();
}

function wafPolicyKeyOf(securityPolicy: ResourceRecord): string | undefined {
  return referenceKey((securityPolicy.body.properties.parameters as { wafPolicy?: unknown } | undefined)?.wafPolicy);
}
