import {
  azureAgentOptions,
  checkDnsLabel,
  checkRegion,
  checkResourceGroup,
  checkSubscriptionId,
  commonAgentOptions,
  parseAgentArgs,
  readArmRateLimitShare,
  readCloudConfigFile,
  readAzureCredential,
  readCommonAgentFlags,
  readHubConnection,
  renderFlagHelp,
  type AzureCredentialChoice,
  type CommonAgentFlags,
  type FlagSpecs,
  type FlagsResult,
  type HubConnection,
} from '@fleet-gateway/agent-flags';

/** The member agent's configuration, from its command line, the upstream member agent's environment and the cloud config. */
export interface MemberFlags extends CommonAgentFlags {
  memberClusterName: string;
  /** How the hub is reached, with credentials scoped to fleet-member-<member>. */
  hub: HubConnection;
  /** Feature gate: discover the internal load balancer and Private Link Service behind exported Services. */
  enablePrivateLinkOriginDiscovery: boolean;
  /** Approve the pending Private Link connections whose request message the hub issued (needs discovery). */
  approvePrivateLinkConnections: boolean;
  /** When set, only the request messages of these hub identities are honoured (approved, or offered as a command). */
  privateLinkApprovalHubs?: readonly string[];
  /** The cluster's node resource group (MC_…), where its load balancers and Private Link Services are. */
  nodeResourceGroup?: string;
  azureTenantId?: string;
  /** The one credential the member agent signs in to ARM with (with discovery). */
  azureCredential?: AzureCredentialChoice;
  /** The cluster's Azure region; unknown, it is read from a node's region label. */
  region?: string;
  /** The share of ARM's per-subscription request buckets this member agent may use, in (0, 1]. */
  armRateLimitShare: number;
}

export type MemberFlagsResult = FlagsResult<MemberFlags>;

const MEMBER_FLAGS = {
  'member-cluster-name': { type: 'string', valueName: 'NAME', description: 'the Fleet member name, a DNS label (required; else MEMBER_CLUSTER_NAME)' },
  'hub-kubeconfig': {
    type: 'string',
    valueName: 'FILE',
    description: 'kubeconfig of the hub, scoped to fleet-member-<member> (else HUB_SERVER_URL, CONFIG_PATH and HUB_CERTIFICATE_AUTHORITY)',
  },
  'enable-private-link-origin-discovery': {
    type: 'boolean',
    default: false,
    description: 'feature gate: discover the internal load balancer and Private Link Service behind exported Services',
  },
  'approve-private-link-connections': {
    type: 'boolean',
    default: false,
    description: 'approve the pending Private Link connections whose request message the hub issued (needs discovery)',
  },
  'private-link-approval-hubs': {
    type: 'string',
    valueName: 'IDS',
    description:
      "honour only the request messages of these hubs: comma-separated hub identities (the hub's fleet-networking-hub-identity tag, subscription/<id>/cluster/<hub>)",
  },
  'node-resource-group': { type: 'string', valueName: 'NAME', description: "the cluster's node resource group (MC_...) (overrides --cloud-config)" },
  region: {
    type: 'string',
    valueName: 'REGION',
    description: "the cluster's Azure region (overrides --cloud-config; default: the nodes' topology.kubernetes.io/region)",
  },
  ...azureAgentOptions({ name: 'member agent', cloudConfigReads: 'subscription, tenant, cloud, node resource group and location' }),
  ...commonAgentOptions({ metrics: ':8090', health: ':8091' }),
  help: { type: 'boolean', short: 'h', default: false, description: 'print this help' },
} as const satisfies FlagSpecs;

export const MEMBER_USAGE = renderFlagHelp(
  'Usage: member-discovery [flags]\n\nThe Fleet member agent: exports Services to the hub with their load balancer and Private Link Service.\n' +
    "Without --hub-kubeconfig it reaches the hub as fleet-networking's member agent does: HUB_SERVER_URL, the token file\n" +
    'CONFIG_PATH (re-read as it rotates) and HUB_CERTIFICATE_AUTHORITY (the base64 PEM of the hub CA).',
  MEMBER_FLAGS,
);

const DISCOVERY_ON = 'when Private Link origin discovery is enabled (--enable-private-link-origin-discovery)';

/**
 * Reads the flags, then what they leave open from the environment (flags win); every problem is reported, each
 * naming the flag or variable, the value and what is expected.
 */
export function parseMemberFlags(argv: string[], environment: NodeJS.ProcessEnv = {}): MemberFlagsResult {
  const parsed = parseAgentArgs(argv, MEMBER_FLAGS);
  if (!parsed.ok) return parsed;
  const { values } = parsed;
  if (values.help) return { ok: true, help: true };
  const errors: string[] = [];
  const member = readMemberName(values['member-cluster-name'], environment['MEMBER_CLUSTER_NAME'], errors);
  const hub = readHubConnection(values['hub-kubeconfig'], environment, errors);
  const cloud = readCloudConfigFile(values['cloud-config'], errors);
  const subscription = values['azure-subscription-id'] ?? cloud.subscriptionId;
  const armEndpoint = values['arm-endpoint'] ?? cloud.armEndpoint;
  const tenant = values['azure-tenant-id'] ?? cloud.tenantId;
  const nodeResourceGroup = values['node-resource-group'] ?? cloud.resourceGroup;
  const region = values.region ?? cloud.location;
  const discovery = values['enable-private-link-origin-discovery'];
  const approve = values['approve-private-link-connections'];
  if (approve && !discovery) errors.push('--approve-private-link-connections needs --enable-private-link-origin-discovery');
  const approvalHubs = readApprovalHubs(values['private-link-approval-hubs'], errors);
  if (approvalHubs && !discovery) errors.push('--private-link-approval-hubs needs --enable-private-link-origin-discovery');
  if (discovery && !subscription) errors.push(`--azure-subscription-id (or subscriptionId of --cloud-config) must be configured ${DISCOVERY_ON}`);
  if (discovery && !nodeResourceGroup) errors.push(`--node-resource-group (or resourceGroup of --cloud-config) must be configured ${DISCOVERY_ON}`);
  for (const problem of [
    checkResourceGroup('node-resource-group', values['node-resource-group']),
    checkRegion('region', values.region),
    checkSubscriptionId('azure-tenant-id', values['azure-tenant-id']),
  ]) {
    if (problem) errors.push(problem);
  }
  const azureCredential = readAzureCredential(
    { kind: values['azure-credential'], clientId: values['azure-client-id'], tenantId: tenant, environment, inUse: discovery },
    errors,
  );
  const armRateLimitShare = readArmRateLimitShare(values['arm-rate-limit-share'], errors);
  const common = readCommonAgentFlags({ ...values, 'azure-subscription-id': subscription, 'arm-endpoint': armEndpoint }, errors);
  if (errors.length > 0 || !member || !hub) return { ok: false, errors };
  return {
    ok: true,
    help: false,
    value: {
      ...common,
      memberClusterName: member,
      hub,
      enablePrivateLinkOriginDiscovery: discovery,
      approvePrivateLinkConnections: approve,
      ...(approvalHubs ? { privateLinkApprovalHubs: approvalHubs } : {}),
      armRateLimitShare,
      ...(nodeResourceGroup !== undefined ? { nodeResourceGroup } : {}),
      ...(tenant !== undefined ? { azureTenantId: tenant } : {}),
      ...(azureCredential !== undefined ? { azureCredential } : {}),
      ...(region !== undefined ? { region } : {}),
    },
  };
}

const HUB_IDENTITY = /^subscription\/[^/\s]+\/cluster\/[^/\s]+$/;

/** `--private-link-approval-hubs`: hub identities as `hubIdentityOf` builds them; each bad one is named. */
function readApprovalHubs(value: string | undefined, errors: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const hubs = value.split(',').map((hub) => hub.trim());
  for (const hub of hubs) {
    if (!HUB_IDENTITY.test(hub))
      errors.push(
        `--private-link-approval-hubs: ${JSON.stringify(hub)} is not a hub identity; expected subscription/<subscription id>/cluster/<hub cluster name>`,
      );
  }
  return hubs;
}

/** `--member-cluster-name`, else upstream's MEMBER_CLUSTER_NAME; an error names whichever gave the value. */
function readMemberName(flag: string | undefined, environment: string | undefined, errors: string[]): string | undefined {
  const name = flag || environment || undefined;
  if (!name) {
    errors.push('--member-cluster-name (or MEMBER_CLUSTER_NAME) is required: the Fleet member name, a DNS label');
    return undefined;
  }
  const problem = checkDnsLabel('member-cluster-name', name, 'member-1');
  if (!problem) return name;
  errors.push(flag ? problem : problem.replace('--member-cluster-name', 'MEMBER_CLUSTER_NAME'));
  return undefined;
}
