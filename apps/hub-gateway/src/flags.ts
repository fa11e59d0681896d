import {
  azureAgentOptions,
  checkDnsLabel,
  checkResourceGroup,
  checkSubscriptionId,
  commonAgentOptions,
  parseAgentArgs,
  parseDuration,
  readArmRateLimitShare,
  readCloudConfigFile,
  readAzureCredential,
  readCommonAgentFlags,
  renderFlagHelp,
  type AzureCredentialChoice,
  type CommonAgentFlags,
  type FlagSpecs,
  type FlagsResult,
} from '@fleet-gateway/agent-flags';
import { AFD_PROFILES_PER_SUBSCRIPTION, DRIFT_CHECK_FLOOR_MS, DRIFT_CHECK_READ_SHARE } from '@fleet-gateway/gateway-controllers';

export const KNOWN_AFD_SKUS = ['Standard_AzureFrontDoor', 'Premium_AzureFrontDoor'] as const;
export type AfdSku = (typeof KNOWN_AFD_SKUS)[number];

/** The hub agent's configuration, from its command line (and the cloud config file it names). */
export interface HubFlags extends CommonAgentFlags {
  /** Feature gate: without it the agent reconciles nothing of AFD. */
  enableAfd: boolean;
  afdResourceGroup?: string;
  defaultAfdSku: AfdSku;
  azureTenantId?: string;
  /** The one credential the hub signs in to ARM with (with --enable-afd). */
  azureCredential?: AzureCredentialChoice;
  /** The hub cluster's name; with the subscription it makes the hub identity in the ownership tags. */
  hubName?: string;
  /** The share of ARM's per-subscription request buckets this hub may use, in (0, 1]. */
  armRateLimitShare: number;
  /** How many AFD profiles (one per Gateway) this hub may hold in the subscription; AFD's quota is 500. */
  afdProfileQuota: number;
  /** How often an unchanged, programmed Gateway is read from Azure to correct drift; absent: automatic from the read budget. */
  driftCheckPeriodMs?: number;
}

export type HubFlagsResult = FlagsResult<HubFlags>;

const HUB_FLAGS = {
  'enable-afd': { type: 'boolean', default: false, description: 'feature gate: reconcile Gateways of class azure-fleet-afd into Azure Front Door' },
  'afd-resource-group': { type: 'string', valueName: 'NAME', description: 'resource group of the AFD profiles (required with --enable-afd)' },
  'default-afd-sku': {
    type: 'string',
    default: 'Standard_AzureFrontDoor',
    valueName: 'SKU',
    description: `profile SKU when a Gateway names none, one of ${KNOWN_AFD_SKUS.join(', ')}`,
  },
  'afd-profile-quota': {
    type: 'string',
    default: String(AFD_PROFILES_PER_SUBSCRIPTION),
    valueName: 'COUNT',
    description: `AFD profiles this hub may hold in the subscription, one per Gateway; Gateways past it (oldest first) are not programmed. AFD allows ${AFD_PROFILES_PER_SUBSCRIPTION} Standard/Premium profiles per subscription`,
  },
  'drift-check-period': {
    type: 'string',
    default: 'auto',
    valueName: 'DURATION',
    description: `how often an unchanged, programmed Gateway is read from Azure again to correct changes made there outside the hub; auto: the shortest period keeping these reads under ${DRIFT_CHECK_READ_SHARE * 100} % of this hub's ARM read refill, at least ${DRIFT_CHECK_FLOOR_MS / 60_000}m`,
  },
  'hub-name': {
    type: 'string',
    valueName: 'NAME',
    description: "this hub cluster's name, a DNS label; with the subscription it identifies the hub in ownership tags (required with --enable-afd)",
  },
  ...azureAgentOptions({ name: 'hub', cloudConfigReads: 'subscription, tenant and cloud' }),
  ...commonAgentOptions({ metrics: ':8082', health: ':8083' }),
  help: { type: 'boolean', short: 'h', default: false, description: 'print this help' },
} as const satisfies FlagSpecs;

export const HUB_USAGE = renderFlagHelp(
  'Usage: hub-gateway [flags]\n\nThe Fleet hub agent: reconciles Gateway API objects and Fleet ServiceImports into Azure Front Door.',
  HUB_FLAGS,
);

/**
 * Reads the flags, and from the environment what the chosen Azure credential needs; every problem is reported, each
 * naming the flag, the value and what is expected.
 */
export function parseHubFlags(argv: string[], environment: NodeJS.ProcessEnv = {}): HubFlagsResult {
  const parsed = parseAgentArgs(argv, HUB_FLAGS);
  if (!parsed.ok) return parsed;
  const { values } = parsed;
  if (values.help) return { ok: true, help: true };
  const errors: string[] = [];
  const cloud = readCloudConfigFile(values['cloud-config'], errors);
  // An explicit flag overrides the cloud config; the common checks then see the value in effect.
  const subscription = values['azure-subscription-id'] ?? cloud.subscriptionId;
  const armEndpoint = values['arm-endpoint'] ?? cloud.armEndpoint;
  const tenant = values['azure-tenant-id'] ?? cloud.tenantId;
  const sku = values['default-afd-sku'];
  if (!(KNOWN_AFD_SKUS as readonly string[]).includes(sku)) {
    errors.push(`--default-afd-sku has unsupported value "${sku}"; expected one of ${KNOWN_AFD_SKUS.join(', ')}`);
  }
  const enableAfd = values['enable-afd'];
  const resourceGroup = values['afd-resource-group'];
  const hubName = values['hub-name'];
  if (enableAfd && !resourceGroup) {
    errors.push('--afd-resource-group must be configured when Azure Front Door reconciliation is enabled (--enable-afd)');
  }
  const resourceGroupError = checkResourceGroup('afd-resource-group', resourceGroup);
  if (resourceGroupError) errors.push(resourceGroupError);
  if (enableAfd && !subscription) {
    errors.push('--azure-subscription-id must be configured when Azure Front Door reconciliation is enabled (--enable-afd), by the flag or --cloud-config');
  }
  if (enableAfd && !hubName) {
    errors.push('--hub-name must be configured when Azure Front Door reconciliation is enabled (--enable-afd): it identifies this hub in the ownership tags');
  } else {
    const hubNameError = checkDnsLabel('hub-name', hubName, 'hub-east');
    if (hubNameError) errors.push(hubNameError);
  }
  const tenantError = checkSubscriptionId('azure-tenant-id', values['azure-tenant-id']);
  if (tenantError) errors.push(tenantError);
  const azureCredential = readAzureCredential(
    { kind: values['azure-credential'], clientId: values['azure-client-id'], tenantId: tenant, environment, inUse: enableAfd },
    errors,
  );
  const armRateLimitShare = readArmRateLimitShare(values['arm-rate-limit-share'], errors);
  const afdProfileQuota = readProfileQuota(values['afd-profile-quota'], errors);
  const driftCheckPeriodMs = readDriftCheckPeriod(values['drift-check-period'], errors);
  const common = readCommonAgentFlags({ ...values, 'azure-subscription-id': subscription, 'arm-endpoint': armEndpoint }, errors);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    help: false,
    value: {
      ...common,
      enableAfd,
      defaultAfdSku: sku as AfdSku,
      armRateLimitShare,
      afdProfileQuota,
      ...(driftCheckPeriodMs !== undefined ? { driftCheckPeriodMs } : {}),
      ...(resourceGroup !== undefined ? { afdResourceGroup: resourceGroup } : {}),
      ...(hubName !== undefined ? { hubName } : {}),
      ...(tenant !== undefined ? { azureTenantId: tenant } : {}),
      ...(azureCredential !== undefined ? { azureCredential } : {}),
    },
  };
}

/** A hub may be given fewer profiles than AFD's quota, never more. */
function readProfileQuota(value: string, errors: string[]): number {
  const quota = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (quota >= 1 && quota <= AFD_PROFILES_PER_SUBSCRIPTION) return quota;
  errors.push(`--afd-profile-quota has invalid value "${value}"; expected a whole number from 1 to ${AFD_PROFILES_PER_SUBSCRIPTION}`);
  return AFD_PROFILES_PER_SUBSCRIPTION;
}

/** `auto` (undefined) or a positive duration. */
function readDriftCheckPeriod(value: string, errors: string[]): number | undefined {
  if (value === 'auto') return undefined;
  const ms = parseDuration(value);
  if (ms !== undefined && ms > 0) return ms;
  errors.push(`--drift-check-period has invalid value "${value}"; expected auto or a positive duration such as 30m or 90s`);
  return undefined;
}
