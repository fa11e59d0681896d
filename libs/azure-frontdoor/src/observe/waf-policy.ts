import { gatewayContract } from '@fleet-gateway/annotations';
import { classifyArmError, describeFailure, parseArmId, type ArmFailure } from '@fleet-gateway/arm-runtime';
import type { FrontDoorClients } from '../clients/arm-clients.js';
import type { ArmRequestCount } from '@fleet-gateway/arm-runtime';
import type { AfdSku } from '../plan/spec-types.js';

export type WafCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'WafPolicyNotFound' | 'WafPolicySkuMismatch'; readonly message: string }
  | { readonly ok: false; readonly reason: 'WafPolicyUnreadable'; readonly message: string; readonly failure: ArmFailure };

/** The Gateway annotation that names the policy: a refusal names it, the value and what it expects. */
const WAF_ANNOTATION = gatewayContract.keys.wafPolicy.key;

/**
 * Reads the WAF policy a Gateway references before associating it: it must exist and have the profile's SKU.
 * The policy itself is only ever read, never created, changed or deleted.
 */
export async function checkWafPolicy(
  clients: FrontDoorClients,
  wafPolicyId: string,
  sku: AfdSku,
  options: { readonly abortSignal?: AbortSignal; readonly requests?: ArmRequestCount } = {},
): Promise<WafCheck> {
  const { subscriptionId = '', resourceGroup = '', names } = parseArmId(wafPolicyId);
  const name = names[0] ?? '';
  const call = {
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    ...(options.requests ? { onResponse: options.requests.onResponse } : {}),
  };
  try {
    const policy = await clients.wafPolicies(subscriptionId).get(resourceGroup, name, call);
    const policySku = policy.sku?.name;
    if (policySku !== sku) {
      return {
        ok: false,
        reason: 'WafPolicySkuMismatch',
        message: `annotation "${WAF_ANNOTATION}" names WAF policy "${wafPolicyId}", which has SKU ${policySku ?? 'none'}; expected a policy of the profile's SKU ${sku} (AFD only associates a WAF policy of the same SKU)`,
      };
    }
    return { ok: true };
  } catch (error) {
    const failure = classifyArmError(error);
    if (failure.status === 404) {
      return {
        ok: false,
        reason: 'WafPolicyNotFound',
        message: `annotation "${WAF_ANNOTATION}" names WAF policy "${wafPolicyId}", which does not exist; expected the id of an existing Front Door WAF policy (the hub associates a policy, it never creates one)`,
      };
    }
    return { ok: false, reason: 'WafPolicyUnreadable', message: `WAF policy ${name} could not be read: ${describeFailure(failure)}`, failure };
  }
}
