import { checkRegion, checkResourceGroup, checkSubscriptionId } from './checks.js';

/** What the agents take from an AKS cloud config (`/etc/kubernetes/azure.json`, upstream's `--cloud-config`). */
export interface CloudConfig {
  readonly subscriptionId?: string;
  readonly tenantId?: string;
  /** The Resource Manager endpoint of the file's `cloud`. */
  readonly armEndpoint?: string;
  /** The cluster's node resource group (`MC_…`), where the cloud provider puts its load balancers and PLSs. */
  readonly resourceGroup?: string;
  /** The cluster's region, e.g. `eastus2`. */
  readonly location?: string;
}

// cloud-provider-azure's cloud names (matched case-insensitively, as its EnvironmentFromName does) and their ARM endpoints.
const ARM_ENDPOINTS: Readonly<Record<string, string>> = {
  azurepubliccloud: 'https://management.azure.com',
  azurechinacloud: 'https://management.chinacloudapi.cn',
  azureusgovernmentcloud: 'https://management.usgovcloudapi.net',
};
const CLOUD_NAMES = 'AzurePublicCloud, AzureChinaCloud, AzureUSGovernmentCloud';

/**
 * Reads the fields the agents use from a cloud config's text (the caller reads the file). Errors name the flag, the
 * file and the field; values are quoted only for fields that are not secrets (the file also holds client secrets).
 */
export function readCloudConfig(file: string, text: string): { ok: true; config: CloudConfig } | { ok: false; errors: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error, which may be a client secret: say only that it is not JSON.
    return { ok: false, errors: [`--cloud-config "${file}" is not valid JSON; expected an AKS azure.json`] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, errors: [`--cloud-config "${file}" holds no JSON object; expected an AKS azure.json`] };
  }
  const fields = parsed as Record<string, unknown>;
  const errors: string[] = [];
  const stringField = (key: string): string | undefined => {
    const value = fields[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string') return value;
    errors.push(`--cloud-config "${file}": field ${key} must be a string`);
    return undefined;
  };
  const subscriptionId = stringField('subscriptionId');
  const tenantId = stringField('tenantId');
  const cloud = stringField('cloud');
  const resourceGroup = stringField('resourceGroup');
  const location = stringField('location');
  for (const [key, value] of [
    ['subscriptionId', subscriptionId],
    ['tenantId', tenantId],
  ] as const) {
    if (checkSubscriptionId(key, value) !== undefined) errors.push(`--cloud-config "${file}": field ${key} has invalid value "${value}"; expected a GUID`);
  }
  if (checkResourceGroup('resourceGroup', resourceGroup) !== undefined) {
    errors.push(`--cloud-config "${file}": field resourceGroup has invalid value "${resourceGroup}"; expected an Azure resource group name`);
  }
  if (checkRegion('location', location) !== undefined) {
    errors.push(`--cloud-config "${file}": field location has invalid value "${location}"; expected an Azure region name such as eastus2`);
  }
  const armEndpoint = cloud === undefined ? undefined : ARM_ENDPOINTS[cloud.toLowerCase()];
  if (cloud !== undefined && armEndpoint === undefined) {
    errors.push(`--cloud-config "${file}": field cloud has unsupported value "${cloud}"; expected one of ${CLOUD_NAMES} (or pass --arm-endpoint)`);
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      ...(subscriptionId === undefined ? {} : { subscriptionId }),
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(armEndpoint === undefined ? {} : { armEndpoint }),
      ...(resourceGroup === undefined ? {} : { resourceGroup }),
      ...(location === undefined ? {} : { location }),
    },
  };
}
