import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { KubeClient } from '@fleet-gateway/controller';
import type { AzureSideInfo, RunningAgent } from '@fleet-gateway/local-system';
import { KubeConfig } from '@kubernetes/client-node';
import type { AzureRun } from './azure-scripts.js';
import type { E2eMode } from './settings.js';

/** The clusters of the end-to-end system: a hub and two members. */
export const E2E_CLUSTERS = ['hub', 'member-1', 'member-2'] as const;
export const E2E_MEMBERS = ['member-1', 'member-2'] as const;
export type E2eMember = (typeof E2E_MEMBERS)[number];
/** member-1's agent approves the hub's Private Link connections itself; member-2's leaves them to an operator. */
export const E2E_AUTO_MEMBER = 'member-1';
export const E2E_MANUAL_MEMBER = 'member-2';
/** The edge's weighted origin choice is seeded, so a measured split is the same run after run. */
export const E2E_EDGE_SEED = 20261201;

/** Azure mode: where the recorded system's Azure side is (real ARM; the agents run in their clusters). */
export interface AzureCloudInfo {
  readonly subscriptionId: string;
  readonly afdResourceGroup: string;
  readonly members: readonly string[];
}

/** What the suites get of the system under test (serializable: global set-up hands it to every test file). */
export interface SystemInfo {
  readonly mode: E2eMode;
  readonly dir: string;
  readonly kubeconfigs: Readonly<Record<string, string>>;
  readonly memberHubKubeconfigs: Readonly<Record<string, string>>;
  /** Local mode: the emulator's side. */
  readonly emulator?: AzureSideInfo;
  /** Azure mode: the subscription's. */
  readonly cloud?: AzureCloudInfo;
  /** Local mode: the agents' processes (in Azure mode they are the charts' Deployments). */
  readonly agents: readonly RunningAgent[];
  /** ENABLE_AZURE_FRONT_DOOR: the Front Door scenarios run. */
  readonly frontDoor: boolean;
  /** Azure mode: the echo backend's image (e2e/azure/echo), deployed behind each Service a scenario applies on a member. */
  readonly echoImage?: string;
}

export interface SystemUnderTest extends Omit<SystemInfo, 'emulator' | 'cloud'> {
  /**
   * The Azure side. In Azure mode only the subscription, the AFD resource group, the members and ARM's endpoint are
   * there; reading one of the emulator's endpoints throws, naming the feature a scenario must declare to use it.
   */
  readonly azure: AzureSideInfo;
  readonly hub: KubeClient;
  readonly members: Readonly<Record<E2eMember, KubeClient>>;
}

/** Public ARM: what Azure mode's ARM clients and DefaultAzureCredential talk to. */
export const AZURE_ARM_ENDPOINT = 'https://management.azure.com';

const EMULATOR_ONLY = ['pid', 'caCertificatePath', 'edgeUrl', 'adminUrl', 'backendsUrl', 'identityEndpoint', 'identityHeader'] as const;

function cloudSide(cloud: AzureCloudInfo): AzureSideInfo {
  const side = { subscriptionId: cloud.subscriptionId, afdResourceGroup: cloud.afdResourceGroup, members: [...cloud.members], armEndpoint: AZURE_ARM_ENDPOINT };
  for (const key of EMULATOR_ONLY) {
    Object.defineProperty(side, key, {
      enumerable: false,
      get: () => {
        throw new Error(`system.azure.${key} is the emulator's: this scenario needs the 'emulator' feature (not run: needs E2E_MODE=local)`);
      },
    });
  }
  return side as AzureSideInfo;
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
  const { emulator, cloud, ...rest } = info;
  const azure = emulator ?? (cloud ? cloudSide(cloud) : undefined);
  if (!azure) throw new Error(`the system under test (${info.mode} mode) records neither the emulator nor a subscription`);
  return { ...rest, azure, hub: client('hub'), members: { 'member-1': client('member-1'), 'member-2': client('member-2') } };
}

/** The SystemInfo of a local system recorded in `dir` (by make e2e-setup or the suites' own set-up). */
export async function systemInfoOf(dir: string, frontDoor: boolean): Promise<SystemInfo> {
  const plane = JSON.parse(await readFile(path.join(dir, 'plane', 'state.json'), 'utf8')) as { clusters: { name: string; kubeconfig: string }[] };
  const azure = JSON.parse(await readFile(path.join(dir, 'azure.json'), 'utf8')) as AzureSideInfo;
  const agents = JSON.parse(await readFile(path.join(dir, 'agents.json'), 'utf8')) as RunningAgent[];
  const memberHubKubeconfigs = Object.fromEntries(E2E_MEMBERS.map((m) => [m, path.join(dir, 'plane', 'hub', `member-${m}.kubeconfig`)]));
  return {
    mode: 'local',
    dir,
    kubeconfigs: Object.fromEntries(plane.clusters.map((c) => [c.name, c.kubeconfig])),
    memberHubKubeconfigs,
    emulator: azure,
    agents,
    frontDoor,
  };
}

/** The SystemInfo of an Azure-mode run recorded by make e2e-setup (e2e/azure/setup.sh's outputs). */
export function azureSystemInfoOf(subscriptionId: string, run: AzureRun, frontDoor: boolean): SystemInfo {
  const outputs = run.outputs ?? {};
  const output = (key: string): string => {
    const value = outputs[key];
    if (!value)
      throw new Error(
        `the Azure run ${run.runId} recorded no ${key} (${run.dir}/outputs.env): its set-up did not finish; run make e2e-cleanup, then make e2e-setup`,
      );
    return value;
  };
  return {
    mode: 'azure',
    dir: run.dir,
    kubeconfigs: Object.fromEntries(E2E_CLUSTERS.map((c) => [c, output(`kubeconfig.${c}`)])),
    memberHubKubeconfigs: Object.fromEntries(E2E_MEMBERS.map((m) => [m, path.join(run.dir, `${m}-hub.kubeconfig`)])),
    cloud: { subscriptionId, afdResourceGroup: output('afdResourceGroup'), members: [...E2E_MEMBERS] },
    agents: [],
    frontDoor,
    echoImage: output('echoImage'),
  };
}
