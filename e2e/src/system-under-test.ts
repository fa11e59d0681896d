import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { KubeClient } from '@fleet-gateway/controller';
import type { AzureSideInfo, RunningAgent } from '@fleet-gateway/local-system';
import { KubeConfig } from '@kubernetes/client-node';

/** The clusters of the end-to-end system: a hub and two members. */
export const E2E_CLUSTERS = ['hub', 'member-1', 'member-2'] as const;
export const E2E_MEMBERS = ['member-1', 'member-2'] as const;
export type E2eMember = (typeof E2E_MEMBERS)[number];
/** member-1's agent approves the hub's Private Link connections itself; member-2's leaves them to an operator. */
export const E2E_AUTO_MEMBER = 'member-1';
export const E2E_MANUAL_MEMBER = 'member-2';
/** The edge's weighted origin choice is seeded, so a measured split is the same run after run. */
export const E2E_EDGE_SEED = 20261201;

/** What the suites get of the system under test (serializable: global set-up hands it to every test file). */
export interface SystemInfo {
  readonly dir: string;
  readonly kubeconfigs: Readonly<Record<string, string>>;
  readonly memberHubKubeconfigs: Readonly<Record<string, string>>;
  readonly azure: AzureSideInfo;
  readonly agents: readonly RunningAgent[];
  /** ENABLE_AZURE_FRONT_DOOR: the Front Door scenarios run. */
  readonly frontDoor: boolean;
}

export interface SystemUnderTest extends SystemInfo {
  readonly hub: KubeClient;
  readonly members: Readonly<Record<E2eMember, KubeClient>>;
}

const clientOf = (kubeconfig: string): KubeClient => {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfig);
  return new KubeClient(config);
};

export function systemUnderTest(info: SystemInfo): SystemUnderTest {
  const client = (cluster: string) => {
    const kubeconfig = info.kubeconfigs[cluster];
    if (!kubeconfig) throw new Error(`the system under test has no cluster ${cluster}`);
    return clientOf(kubeconfig);
  };
  return { ...info, hub: client('hub'), members: { 'member-1': client('member-1'), 'member-2': client('member-2') } };
}

/** The SystemInfo of a local system recorded in `dir` (by make e2e-setup or the suites' own set-up). */
export async function systemInfoOf(dir: string, frontDoor: boolean): Promise<SystemInfo> {
  const plane = JSON.parse(await readFile(path.join(dir, 'plane', 'state.json'), 'utf8')) as { clusters: { name: string; kubeconfig: string }[] };
  const azure = JSON.parse(await readFile(path.join(dir, 'azure.json'), 'utf8')) as AzureSideInfo;
  const agents = JSON.parse(await readFile(path.join(dir, 'agents.json'), 'utf8')) as RunningAgent[];
  const memberHubKubeconfigs = Object.fromEntries(E2E_MEMBERS.map((m) => [m, path.join(dir, 'plane', 'hub', `member-${m}.kubeconfig`)]));
  return { dir, kubeconfigs: Object.fromEntries(plane.clusters.map((c) => [c.name, c.kubeconfig])), memberHubKubeconfigs, azure, agents, frontDoor };
}
