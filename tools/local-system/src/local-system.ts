import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunning, startControlPlane, stopDetached, stopRecordedProcesses, type ControlPlaneState } from '@fleet-gateway/control-plane';
import type { AzureSideInfo } from './azure-side-info.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');

export interface LocalSystem {
  dir: string;
  plane: ControlPlaneState;
  azure: AzureSideInfo;
}

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
export async function startLocalSystem(options: { dir: string; clusters: string[]; log?: (line: string) => void }): Promise<LocalSystem> {
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
  const members = state.clusters.filter((c) => c.name !== 'hub').flatMap((c) => ['--member', `${c.name}=${c.kubeconfig}`]);
  const logFile = path.join(dir, 'azure-side.log');
  const log = openSync(logFile, 'a');
  const child = spawn(tsx, [path.join(here, 'azure-side.ts'), '--dir', dir, ...members], { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  child.unref();
  try {
    const azure = JSON.parse(await waitForFile(path.join(dir, 'azure.json'), child.pid ?? -1, logFile, 60_000)) as AzureSideInfo;
    return { dir, plane: state, azure };
  } catch (error) {
    if (child.pid !== undefined && isRunning(child.pid)) process.kill(child.pid, 'SIGKILL');
    await stopDetached(path.join(dir, 'plane'));
    throw error;
  }
}

/** Stops the Azure side (only if its pid still runs azure-side.ts) and the control planes, then removes dir. */
export async function stopLocalSystem(dir: string): Promise<void> {
  const azureFile = path.join(dir, 'azure.json');
  if (existsSync(azureFile)) {
    const { pid } = JSON.parse(await readFile(azureFile, 'utf8')) as AzureSideInfo;
    await stopRecordedProcesses([pid], 'azure-side.ts', 10_000);
  }
  if (existsSync(path.join(dir, 'plane', 'state.json'))) await stopDetached(path.join(dir, 'plane'));
  await rm(dir, { recursive: true, force: true });
}
