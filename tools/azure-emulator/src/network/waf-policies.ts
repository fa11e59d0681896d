import { randomUUID } from 'node:crypto';
import { ArmError, badRequest, conflict } from '../arm/errors.js';
import type { ResourceKind } from '../arm/kind.js';
import { formatArmPath, kindKeyOf, resourceKey } from '../arm/resource-id.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';

export const WAF_API_VERSION = '2024-02-01';
export const WAF_POLICY_KIND_KEY = kindKeyOf('Microsoft.Network', ['frontDoorWebApplicationFirewallPolicies']);
const WAF_SKUS = ['Classic_AzureFrontDoor', 'Standard_AzureFrontDoor', 'Premium_AzureFrontDoor'];
const SECURITY_POLICY_KIND_KEY = 'microsoft.cdn/profiles/securitypolicies';

/**
 * Microsoft.Network/frontdoorWebApplicationFirewallPolicies at the api-version @azure/arm-frontdoor 5.3.0 uses:
 * readable through ARM (GET, list), created and deleted only through the admin API (minimal: name, SKU, state).
 */
export const wafPolicyKind: ResourceKind = {
  provider: 'Microsoft.Network',
  types: ['frontDoorWebApplicationFirewallPolicies'],
  apiVersion: WAF_API_VERSION,
  tracked: true,
  lro: { put: false, patch: false, delete: false },
  deletable: false,
  render(record, context) {
    const links = context.store
      .ofKind(SECURITY_POLICY_KIND_KEY)
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

export function createWafPolicy(spec: WafPolicySpec, context: EmulatorContext): ResourceRecord {
  if (!/^[a-zA-Z][a-zA-Z0-9]{0,127}$/.test(spec.name)) {
    throw badRequest(`'name' must start with a letter and contain only letters and digits (at most 128); got '${spec.name}'.`);
  }
  if (!WAF_SKUS.includes(spec.sku)) throw badRequest(`'sku' must be one of ${WAF_SKUS.join(', ')}; got '${spec.sku}'.`);
  const path = { subscriptionId: spec.subscriptionId, resourceGroup: spec.resourceGroup, provider: 'Microsoft.Network', types: ['frontDoorWebApplicationFirewallPolicies'], names: [spec.name] };
  const id = formatArmPath(path);
  const existing = context.store.get(resourceKey(id));
  const subscription = spec.subscriptionId.toLowerCase();
  const count = context.store.ofKind(WAF_POLICY_KIND_KEY).filter((p) => p.path.subscriptionId.toLowerCase() === subscription).length;
  if (existing === undefined && count >= context.limits.afd.wafPoliciesPerSubscription) {
    throw badRequest(`Limit reached: a subscription can hold at most ${context.limits.afd.wafPoliciesPerSubscription} Front Door WAF policies.`);
  }
  const now = new Date(context.now()).toISOString();
  const body = {
    location: 'Global',
    tags: spec.tags ?? {},
    sku: { name: spec.sku },
    properties: { policySettings: { enabledState: spec.enabledState ?? 'Enabled', mode: spec.mode ?? 'Prevention' }, customRules: { rules: [] }, managedRules: { managedRuleSets: [] } },
  };
  const record: ResourceRecord = {
    id: existing?.id ?? id,
    key: resourceKey(id),
    kindKey: WAF_POLICY_KIND_KEY,
    path,
    name: existing?.name ?? spec.name,
    body,
    applied: structuredClone(body),
    provisioningState: 'Succeeded',
    etag: `W/"${randomUUID()}"`,
    createdAt: existing?.createdAt ?? now,
    modifiedAt: now,
    changedAtMs: context.now(),
    internal: {},
  };
  context.store.put(record);
  context.store.changed();
  return record;
}

export function deleteWafPolicy(id: string, context: EmulatorContext): void {
  const record = context.store.get(resourceKey(id));
  if (record?.kindKey !== WAF_POLICY_KIND_KEY) throw new ArmError(404, 'ResourceNotFound', `WAF policy '${id}' was not found.`);
  const user = context.store.ofKind(SECURITY_POLICY_KIND_KEY).find((policy) => wafPolicyKeyOf(policy) === record.key);
  if (user !== undefined) throw conflict(`WAF policy '${record.name}' is used by security policy '${user.id}'.`);
  context.store.remove(record.key);
  context.store.changed();
}

function wafPolicyKeyOf(securityPolicy: ResourceRecord): string | undefined {
  const id = (securityPolicy.body.properties.parameters as { wafPolicy?: { id?: unknown } } | undefined)?.wafPolicy?.id;
  return typeof id === 'string' ? resourceKey(id) : undefined;
}
