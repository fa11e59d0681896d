import path from 'node:path';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { memberResourceGroup, type AzureSideInfo } from './azure-side-info.js';

/** One agent process of the local system: the bundle its image runs, its flags and the environment a pod would give it. */
export interface AgentLaunch {
  /** `hub-gateway`, or `member-discovery-<member>`. */
  readonly name: string;
  /** node's own flags, before the bundle: the agent's launch flags, as its image's ENTRYPOINT gives them. */
  readonly nodeFlags: readonly string[];
  readonly bundle: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** `http://127.0.0.1:<port>`: /healthz and /readyz. */
  readonly healthUrl: string;
  readonly metricsUrl: string;
}

export interface AgentLaunchInputs {
  /** The repository root: the bundles are `dist/apps/<app>/main.mjs` under it. */
  readonly root: string;
  readonly azure: AzureSideInfo;
  /** Each cluster's admin kubeconfig (the agents' in-cluster identity here). */
  readonly kubeconfigs: Readonly<Record<string, string>>;
  /** Each member's kubeconfig for the hub, allowed only in fleet-member-<member> (the harness mints it). */
  readonly memberHubKubeconfigs: Readonly<Record<string, string>>;
  /** Free ports for the agents' health and metrics, two per agent (hub first, then the members in order). */
  readonly ports: readonly number[];
  /** Members whose agent does not approve connections itself (an operator does, with the command it shows). */
  readonly manualApproval?: readonly string[];
}

export const agentBundle = (root: string, app: 'hub-gateway' | 'member-discovery'): string => path.join(root, 'dist', 'apps', app, 'main.mjs');

/**
 * Pure: how the local system runs its agents — the hub agent with Front Door on (Premium by default, the sample
 * uses Private Link) and each member's agent with Private Link discovery and (unless listed in `manualApproval`)
 * auto-approval on, both taking their
 * Azure tokens from the emulator's managed-identity endpoint and trusting its CA, as a pod with workload identity
 * would. Only the environment listed here reaches them (plus PATH).
 */
export function agentLaunches(inputs: AgentLaunchInputs): AgentLaunch[] {
  const { azure } = inputs;
  const hubKubeconfig = inputs.kubeconfigs['hub'];
  if (hubKubeconfig === undefined) throw new Error('the local system has no hub cluster');
  const azureEnv = {
    IDENTITY_ENDPOINT: azure.identityEndpoint,
    IDENTITY_HEADER: azure.identityHeader,
    NODE_EXTRA_CA_CERTS: azure.caCertificatePath,
  };
  const expected = 2 * (1 + azure.members.length);
  if (inputs.ports.length < expected) throw new Error(`${expected} ports are needed for ${1 + azure.members.length} agents, got ${inputs.ports.length}`);
  let next = 0;
  const serving = () => {
    const health = inputs.ports[next++]!;
    const metrics = inputs.ports[next++]!;
    return {
      // Bound to loopback, /metrics is plain HTTP for anyone on this machine (a pod's default is HTTPS behind the API server's review).
      args: ['--health-probe-bind-address', `127.0.0.1:${health}`, '--metrics-bind-address', `127.0.0.1:${metrics}`, '--metrics-secure=false'],
      healthUrl: `http://127.0.0.1:${health}`,
      metricsUrl: `http://127.0.0.1:${metrics}`,
    };
  };
  const common = ['--azure-subscription-id', azure.subscriptionId, '--arm-endpoint', azure.armEndpoint];
  const hubServing = serving();
  const hub: AgentLaunch = {
    name: 'hub-gateway',
    nodeFlags: AGENT_NODE_FLAGS['hub-gateway'],
    bundle: agentBundle(inputs.root, 'hub-gateway'),
    args: [
      '--enable-afd',
      '--afd-resource-group',
      azure.afdResourceGroup,
      '--hub-name',
      'hub',
      '--default-afd-sku',
      'Premium_AzureFrontDoor',
      ...common,
      ...hubServing.args,
    ],
    env: { KUBECONFIG: hubKubeconfig, ...azureEnv },
    healthUrl: hubServing.healthUrl,
    metricsUrl: hubServing.metricsUrl,
  };
  const members = azure.members.map((member): AgentLaunch => {
    const kubeconfig = inputs.kubeconfigs[member];
    const hubAccess = inputs.memberHubKubeconfigs[member];
    if (kubeconfig === undefined || hubAccess === undefined) throw new Error(`member ${member} has no kubeconfig or hub kubeconfig`);
    const memberServing = serving();
    return {
      name: `member-discovery-${member}`,
      nodeFlags: AGENT_NODE_FLAGS['member-discovery'],
      bundle: agentBundle(inputs.root, 'member-discovery'),
      args: [
        '--member-cluster-name',
        member,
        '--hub-kubeconfig',
        hubAccess,
        '--enable-private-link-origin-discovery',
        ...(inputs.manualApproval?.includes(member) ? [] : ['--approve-private-link-connections']),
        '--node-resource-group',
        memberResourceGroup(member),
        ...common,
        ...memberServing.args,
      ],
      env: { KUBECONFIG: kubeconfig, ...azureEnv },
      healthUrl: memberServing.healthUrl,
      metricsUrl: memberServing.metricsUrl,
    };
  });
  return [hub, ...members];
}
