import { checkResourceGroup, commonAgentOptions, parseAgentArgs, readCommonAgentFlags, type CommonAgentFlags } from '@fleet-gateway/agent-flags';

export const KNOWN_AFD_SKUS = ['Standard_AzureFrontDoor', 'Premium_AzureFrontDoor'] as const;
export type AfdSku = (typeof KNOWN_AFD_SKUS)[number];

/** The hub agent's configuration, from its command line. */
export interface HubFlags extends CommonAgentFlags {
  /** Feature gate: without it the agent reconciles nothing of AFD. */
  enableAfd: boolean;
  afdResourceGroup?: string;
  defaultAfdSku: AfdSku;
}

export type HubFlagsResult = { ok: true; value: HubFlags } | { ok: false; errors: string[] };

/** Reads the flags; every problem is reported, each naming the flag, the value and what is expected. */
export function parseHubFlags(argv: string[]): HubFlagsResult {
  const parsed = parseAgentArgs(argv, {
    ...commonAgentOptions({ metrics: ':8082', health: ':8083' }),
    'enable-afd': { type: 'boolean', default: false },
    'afd-resource-group': { type: 'string' },
    'default-afd-sku': { type: 'string', default: 'Standard_AzureFrontDoor' },
  });
  if (!parsed.ok) return parsed;
  const { values } = parsed;
  const errors: string[] = [];
  const sku = values['default-afd-sku'];
  if (!(KNOWN_AFD_SKUS as readonly string[]).includes(sku)) {
    errors.push(`--default-afd-sku has unsupported value "${sku}"; expected one of ${KNOWN_AFD_SKUS.join(', ')}`);
  }
  const enableAfd = values['enable-afd'];
  const resourceGroup = values['afd-resource-group'];
  if (enableAfd && !resourceGroup) {
    errors.push('--afd-resource-group must be configured when Azure Front Door reconciliation is enabled (--enable-afd)');
  }
  const resourceGroupError = checkResourceGroup('afd-resource-group', resourceGroup);
  if (resourceGroupError) errors.push(resourceGroupError);
  if (enableAfd && !values['azure-subscription-id']) {
    errors.push('--azure-subscription-id must be configured when Azure Front Door reconciliation is enabled (--enable-afd)');
  }
  const common = readCommonAgentFlags(values, errors);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { ...common, enableAfd, defaultAfdSku: sku as AfdSku, ...(resourceGroup !== undefined ? { afdResourceGroup: resourceGroup } : {}) },
  };
}
