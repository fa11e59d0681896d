import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunning, startControlPlane, stopDetached, stopRecordedProcesses, type ControlPlaneState } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { KubeConfig } from '@kubernetes/client-node';
import { agentLaunches } from './agent-launches.js';
import { freePorts, startAgents, stopAgents, waitForAgents, type RunningAgent } from './agents.js';
import type { AzureSideInfo } from './azure-side-info.js';
import { applyManifests, sampleManifests, waitForEveryMember, waitForProgrammed } from './sample.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');

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
}

const clientOf = (kubeconfig: string): KubeClient => {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfig);
  return new KubeClient(config);
};

async function waitForFile(file: string, pid: number, logFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) return readFile(file, 'utf8');
    if (!isRunning(pid)) throw new Error(`the Azure side exited during start-up; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the Azure side did not come up within ${timeoutMs} ms; see ${logFile}`);
}

/**
 * Starts the local system detached: real control planes (hub + members, CRDs installed) and the Azure side
 * (emulator + cloud-provider stand-ins for the members). `stopLocalSystem(dir)` ends exactly what this started.
 */
export async function startLocalSystem(options: LocalSystemOptions): Promise<LocalSystem> {
  const { dir, clusters } = options;
  if (existsSync(path.join(dir, 'plane', 'state.json'))) {
    throw new Error(`a local system is already recorded in ${dir}; stop it first`);
  }
  await mkdir(dir, { recursive: true });
  const plane = await startControlPlane({
    clusters,
    workDir: path.join(dir, 'plane'),
    detached: true,
    crds: Object.fromEntries(clusters.map((c) => [c, {}])),
    ...(options.log ? { log: options.log } : {}),
  });
  const state = plane.state();
  const memberHubKubeconfigs: Record<string, string> = {};
  for (const cluster of state.clusters.filter((c) => c.name !== 'hub')) memberHubKubeconfigs[cluster.name] = await plane.memberHubKubeconfig(cluster.name);
  const members = state.clusters.filter((c) => c.name !== 'hub').flatMap((c) => ['--member', `${c.name}=${c.kubeconfig}`]);
  const logFile = path.join(dir, 'azure-side.log');
  const log = openSync(logFile, 'a');
  const sample = [
    ...(options.withAgents ? ['--echo-backends'] : []),
    ...(options.timing ? ['--timing', options.timing] : []),
    ...(options.edgeSeed === undefined ? [] : ['--edge-seed', String(options.edgeSeed)]),
  ];
  const child = spawn(tsx, [path.join(here, 'azure-side.ts'), '--dir', dir, ...members, ...sample], { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  child.unref();
  try {
    const azure = JSON.parse(await waitForFile(path.join(dir, 'azure.json'), child.pid ?? -1, logFile, 60_000)) as AzureSideInfo;
    const system: LocalSystem = { dir, plane: state, azure, memberHubKubeconfigs };
    return options.withAgents ? await withAgents(system, options, options.log ?? (() => {})) : system;
  } catch (error) {
    await stopAgents(dir);
    if (child.pid !== undefined && isRunning(child.pid)) process.kill(child.pid, 'SIGKILL');
    await stopDetached(path.join(dir, 'plane'));
    throw error;
  }
}

/** Runs both agents, applies the sample (hub: Gateway + HTTPRoute; members: Service + ServiceExport) and waits until it serves. */
async function withAgents(system: LocalSystem, options: LocalSystemOptions, log: (line: string) => void): Promise<LocalSystem> {
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
  // The agents' leader Leases live in fleet-system, which their charts install into (fleetSystemNamespace).
  const fleetSystem = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fleet-system' } };
  for (const kubeconfig of Object.values(kubeconfigs)) await applyManifests(clientOf(kubeconfig), [fleetSystem]);
  log(`starting ${launches.map((l) => l.name).join(', ')} (bundles under node ${process.version})`);
  const agents = await startAgents(system.dir, launches);
  await waitForAgents(agents, log, 60_000);
  if (options.sample === false) return { ...system, agents };
  log('applying the sample: Gateway shop/web (Premium) and HTTPRoute on the hub; Service shop/web (internal load balancer + Private Link Service) and its ServiceExport in each member');
  const hub = clientOf(kubeconfigs['hub']!);
  await applyManifests(hub, await sampleManifests('hub'));
  const members = system.azure.members;
  for (const member of members) await applyManifests(clientOf(kubeconfigs[member]!), await sampleManifests('member'));
  const endpointHostname = await waitForProgrammed(hub, log, 300_000);
  log(`Gateway shop/web is Programmed at ${endpointHostname}; waiting for the edge to answer from ${members.join(', ')}`);
  await waitForEveryMember(system.azure.edgeUrl, endpointHostname, members, log, 180_000);
  return { ...system, agents, endpointHostname };
}

/** Stops the agents, the Azure side (each only if its pid still runs what was recorded) and the control planes, then removes dir. */
export async function stopLocalSystem(dir: string): Promise<void> {
  await stopAgents(dir);
  const azureFile = path.join(dir, 'azure.json');
  if (existsSync(azureFile)) {
    const { pid } = JSON.parse(await readFile(azureFile, 'utf8')) as AzureSideInfo;
    await stopRecordedProcesses([pid], 'azure-side.ts', 10_000);
  }
  if (existsSync(path.join(dir, 'plane', 'state.json'))) await stopDetached(path.join(dir, 'plane'));
  await rm(dir, { recursive: true, force: true });
}
