import { checkDnsLabel, commonAgentOptions, parseAgentArgs, readCommonAgentFlags, renderFlagHelp, type CommonAgentFlags, type FlagSpecs, type FlagsResult } from '@fleet-gateway/agent-flags';

/** The member agent's configuration, from its command line. */
export interface MemberFlags extends CommonAgentFlags {
  memberClusterName: string;
  /** Kubeconfig of the hub, scoped to fleet-member-<member>. */
  hubKubeconfig: string;
  /** Feature gate: discover the internal load balancer and Private Link Service behind exported Services. */
  enablePrivateLinkOriginDiscovery: boolean;
  /** Approve the pending Private Link connections whose request message the hub issued (needs discovery). */
  approvePrivateLinkConnections: boolean;
}

export type MemberFlagsResult = FlagsResult<MemberFlags>;

const MEMBER_FLAGS = {
  'member-cluster-name': { type: 'string', valueName: 'NAME', description: 'the Fleet member name, a DNS label (required)' },
  'hub-kubeconfig': { type: 'string', valueName: 'FILE', description: 'kubeconfig of the hub, scoped to fleet-member-<member> (required)' },
  'enable-private-link-origin-discovery': { type: 'boolean', default: false, description: 'feature gate: discover the internal load balancer and Private Link Service behind exported Services' },
  'approve-private-link-connections': { type: 'boolean', default: false, description: 'approve the pending Private Link connections whose request message the hub issued (needs discovery)' },
  ...commonAgentOptions({ metrics: ':8090', health: ':8091' }),
  help: { type: 'boolean', short: 'h', default: false, description: 'print this help' },
} as const satisfies FlagSpecs;

export const MEMBER_USAGE = renderFlagHelp(
  'Usage: member-discovery [flags]\n\nThe Fleet member agent: exports Services to the hub with their load balancer and Private Link Service.',
  MEMBER_FLAGS,
);

/** Reads the flags; every problem is reported, each naming the flag, the value and what is expected. */
export function parseMemberFlags(argv: string[]): MemberFlagsResult {
  const parsed = parseAgentArgs(argv, MEMBER_FLAGS);
  if (!parsed.ok) return parsed;
  const { values } = parsed;
  if (values.help) return { ok: true, help: true };
  const errors: string[] = [];
  const member = values['member-cluster-name'];
  const hubKubeconfig = values['hub-kubeconfig'];
  if (!member) errors.push('--member-cluster-name is required (the Fleet member name, a DNS label)');
  const memberError = checkDnsLabel('member-cluster-name', member || undefined, 'member-1');
  if (memberError) errors.push(memberError);
  if (!hubKubeconfig) errors.push('--hub-kubeconfig is required (a kubeconfig for the hub, scoped to fleet-member-<member>)');
  const discovery = values['enable-private-link-origin-discovery'];
  const approve = values['approve-private-link-connections'];
  if (approve && !discovery) errors.push('--approve-private-link-connections needs --enable-private-link-origin-discovery');
  if (discovery && !values['azure-subscription-id']) {
    errors.push('--azure-subscription-id must be configured when Private Link origin discovery is enabled (--enable-private-link-origin-discovery)');
  }
  const common = readCommonAgentFlags(values, errors);
  if (errors.length > 0 || !member || !hubKubeconfig) return { ok: false, errors };
  return {
    ok: true,
    help: false,
    value: { ...common, memberClusterName: member, hubKubeconfig, enablePrivateLinkOriginDiscovery: discovery, approvePrivateLinkConnections: approve },
  };
}
