import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  defaultGatewayApiVersion,
  freePorts,
  isRunning,
  NEWEST_GATEWAY_API_VERSION,
  removeOnExit,
  startControlPlane,
  stopDetached,
  type ControlPlane,
  type ControlPlaneState,
  type GatewayApiVersion,
} from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { KubeConfig } from '@kubernetes/client-node';
import { agentLaunches } from './agent-launches.js';
import { startAgents, waitForAgents, type RunningAgent } from './agents.js';
import type { AzureSideInfo } from './azure-side-info.js';
import { startAzureSide } from './azure-side-process.js';
import { stopManagedProcesses, type StartedProcess } from './managed-process.js';
import { applyManifests, sampleManifests, waitForEveryMember, waitForProgrammed } from './sample.js';
import { judgeFolder, readRecord, writeRecord, type LocalSystemRecord } from './state-record.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface LocalSystem {
  dir: string;
  plane: ControlPlaneState;
  azure: AzureSideInfo;
  /** Each member's kubeconfig for the hub, allowed only in its fleet-member-<member> namespace. */
  memberHubKubeconfigs: Record<string, string>;
  /** With `withAgents`: the agent processes, and the sample Gateway's AFD endpoint host name once it serves. */
  agents?: RunningAgent[];
  endpointHostname?: string;
}

export interface LocalSystemOptions {
  dir: string;
  clusters: string[];
  /** Also run both agents' bundles, apply the sample and wait until the edge answers from every member. */
  withAgents?: boolean;
  /** With agents: apply the sample and wait for it (default true; the end-to-end suites bring their own objects). */
  sample?: boolean;
  /** Members whose agent leaves approval to an operator (no --approve-private-link-connections). */
  manualApproval?: readonly string[];
  /** The emulator's timing: `watchable` (default, for people) or `fast` (end-to-end suites). */
  timing?: 'watchable' | 'fast';
  /** Fixes the edge's weighted origin choice. */
  edgeSeed?: number;
  log?: (line: string) => void;
  azureStartTimeoutMs?: number;
  /** The Gateway API release the clusters serve (standard channel). Default: GATEWAY_API_VERSION, else the newest. */
  gatewayApiVersion?: GatewayApiVersion;
}

/** The class the hub chart installs for the agent's controllerName. */
const GATEWAY_CLASS = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'GatewayClass',
  metadata: { name: 'azure-fleet-afd' },
  spec: { controllerName: 'networking.fleet.azure.com/afd' },
};

const clientOf = (kubeconfig: string): KubeClient => {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfig);
  return new KubeClient(config);
};

const describeRecord = (record: LocalSystemRecord): string => `started ${record.startedAt} by process ${record.owner}`;

/** Stops whatever a record names (its managed processes with their groups, then the control plane) and removes dir. */
async function stopRecorded(dir: string, record: LocalSystemRecord): Promise<void> {
  await stopManagedProcesses(record.processes);
  const planeDir = path.join(dir, 'plane');
  if (existsSync(path.join(planeDir, 'state.json'))) await stopDetached(planeDir);
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}

/** Makes sure dir holds nothing of an earlier run, or refuses (see judgeFolder). */
async function prepareFolder(dir: string, log: (line: string) => void): Promise<void> {
  const entries = await readdir(dir).catch(() => undefined);
  const verdict = judgeFolder(entries, await readRecord(dir), isRunning);
  switch (verdict.kind) {
    case 'fresh':
      return;
    case 'running':
      throw new Error(`a local system is already running in ${dir} (${describeRecord(verdict.record)}); stop it first with make local-down`);
    case 'starting':
      throw new Error(`another local-up (process ${verdict.record.owner}) is still starting a local system in ${dir}; interrupt it (Ctrl-C) or wait for it`);
    case 'unrecorded':
      throw new Error(
        `${dir} holds files (${verdict.entries.slice(0, 5).join(', ')}) but no completed record of a local system (state.json); local-up never reuses data it did not record as its own (objects of an earlier run would reappear). Remove the folder (rm -rf ${dir}) or choose another --dir`,
      );
    case 'remains':
      log(
        `removing the remains of an earlier local system in ${dir} (${describeRecord(verdict.record)}, ${verdict.record.status === 'running' ? 'its processes are gone' : 'its start was interrupted'}); nothing of it is reused`,
      );
      await stopRecorded(dir, verdict.record);
  }
}

/**
 * Starts the local system detached: real control planes (hub + members, CRDs installed), the Azure side (emulator +
 * cloud-provider stand-ins for the members) and, with `withAgents`, both agents and the sample, each recorded in
 * <dir>/state.json. Until everything serves, everything dies with this process and the folder goes with it (a
 * failure, SIGINT, SIGTERM or SIGHUP leaves nothing); then all of it is handed over at once, and
 * `stopLocalSystem(dir)` ends exactly what this started.
 */
export async function startLocalSystem(options: LocalSystemOptions): Promise<LocalSystem> {
  const { dir, clusters } = options;
  const log = options.log ?? (() => {});
  const gatewayApiVersion = options.gatewayApiVersion ?? defaultGatewayApiVersion(NEWEST_GATEWAY_API_VERSION);
  await prepareFolder(dir, log);
  await mkdir(dir, { recursive: true });
  const forgetFolder = removeOnExit(dir);
  const record: LocalSystemRecord = { status: 'starting', owner: process.pid, startedAt: new Date().toISOString(), clusters, processes: [] };
  let plane: ControlPlane | undefined;
  const processes: StartedProcess[] = [];
  const recordProcesses = async (): Promise<void> => {
    record.processes = processes.map((p) => p.record);
    await writeRecord(dir, record);
  };
  let system: LocalSystem;
  try {
    await writeRecord(dir, record);
    plane = await startControlPlane({
      clusters,
      workDir: path.join(dir, 'plane'),
      detached: true,
      holdUntilReleased: true,
      crds: Object.fromEntries(clusters.map((c) => [c, { gatewayApiVersion }])),
      log,
    });
    record.plane = plane.state();
    await writeRecord(dir, record);
    const memberHubKubeconfigs: Record<string, string> = {};
    for (const cluster of record.plane.clusters.filter((c) => c.name !== 'hub'))
      memberHubKubeconfigs[cluster.name] = await plane.memberHubKubeconfig(cluster.name);
    const members = record.plane.clusters.filter((c) => c.name !== 'hub').map((c) => ({ name: c.name, kubeconfig: c.kubeconfig }));
    const flags = [
      ...(options.withAgents ? ['--echo-backends'] : []),
      ...(options.timing ? ['--timing', options.timing] : []),
      ...(options.edgeSeed === undefined ? [] : ['--edge-seed', String(options.edgeSeed)]),
    ];
    const azure = await startAzureSide({ dir, members, flags, timeoutMs: options.azureStartTimeoutMs ?? 60_000, log });
    processes.push(azure.process);
    record.azure = azure.info;
    await recordProcesses();
    system = { dir, plane: record.plane, azure: azure.info, memberHubKubeconfigs };
    if (options.withAgents) system = await withAgents(system, options, processes, recordProcesses, log);
    record.status = 'running';
    await recordProcesses();
  } catch (error) {
    await stopManagedProcesses(
      processes.map((p) => p.record),
      2_000,
    );
    await plane?.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    forgetFolder();
    throw error;
  }
  plane.release();
  for (const started of processes) started.release();
  forgetFolder();
  return system;
}

/** Runs both agents, applies the sample (hub: Gateway + HTTPRoute; members: Service + ServiceExport) and waits until it serves. */
async function withAgents(
  system: LocalSystem,
  options: LocalSystemOptions,
  processes: StartedProcess[],
  recordProcesses: () => Promise<void>,
  log: (line: string) => void,
): Promise<LocalSystem> {
  const kubeconfigs = Object.fromEntries(system.plane.clusters.map((c) => [c.name, c.kubeconfig]));
  const root = path.resolve(here, '../../..');
  const launches = agentLaunches({
    root,
    azure: system.azure,
    kubeconfigs,
    memberHubKubeconfigs: system.memberHubKubeconfigs,
    ports: await freePorts(2 * system.plane.clusters.length),
    manualApproval: options.manualApproval ?? [],
  });
  // What the charts install: the agents' namespace (fleetSystemNamespace, where their leader Leases live) in every
  // cluster, and the hub's GatewayClass.
  const fleetSystem = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fleet-system' } };
  for (const kubeconfig of Object.values(kubeconfigs)) await applyManifests(clientOf(kubeconfig), [fleetSystem]);
  await applyManifests(clientOf(kubeconfigs['hub']!), [GATEWAY_CLASS]);
  log(`starting ${launches.map((l) => l.name).join(', ')} (bundles under node ${process.version})`);
  const agents = await startAgents(system.dir, launches, processes);
  await recordProcesses();
  await waitForAgents(agents, log, 60_000);
  if (options.sample === false) return { ...system, agents };
  log(
    'applying the sample: Gateway shop/web (Premium) and HTTPRoute on the hub; Service shop/web (internal load balancer + Private Link Service) and its ServiceExport in each member',
  );
  const hub = clientOf(kubeconfigs['hub']!);
  await applyManifests(hub, await sampleManifests('hub'));
  const members = system.azure.members;
  for (const member of members) await applyManifests(clientOf(kubeconfigs[member]!), await sampleManifests('member'));
  const endpointHostname = await waitForProgrammed(hub, log, 300_000);
  log(`Gateway shop/web is Programmed at ${endpointHostname}; waiting for the edge to answer from ${members.join(', ')}`);
  await waitForEveryMember(system.azure.edgeUrl, endpointHostname, members, log, 180_000);
  return { ...system, agents, endpointHostname };
}

/** Stops exactly what the record in dir names, then removes dir; without dir it does nothing. */
export async function stopLocalSystem(dir: string): Promise<void> {
  const record = await readRecord(dir);
  if (record === undefined) {
    const entries = await readdir(dir).catch(() => undefined);
    if (entries === undefined) return;
    if (entries.length === 0) {
      await rm(dir, { recursive: true, force: true });
      return;
    }
    throw new Error(
      `${dir} has no record of a local system (state.json), so nothing there is known to be local-up's; not touching it. Remove it yourself (rm -rf ${dir}) if it is an old local system's folder`,
    );
  }
  if (record.status === 'starting' && isRunning(record.owner)) {
    throw new Error(`local-up (process ${record.owner}) is still starting in ${dir}; interrupt it (Ctrl-C), which stops everything it started`);
  }
  await stopRecorded(dir, record);
}
