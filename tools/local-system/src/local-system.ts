import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isRunning, removeOnExit, startControlPlane, stopDetached, type ControlPlane } from '@fleet-gateway/control-plane';
import { startAzureSide } from './azure-side-process.js';
import { stopManagedProcesses, type StartedProcess } from './managed-process.js';
import { judgeFolder, readRecord, writeRecord, type LocalSystemRecord } from './state-record.js';

export interface LocalSystemOptions {
  dir: string;
  clusters: string[];
  log?: (line: string) => void;
  azureStartTimeoutMs?: number;
}

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
      log(`removing the remains of an earlier local system in ${dir} (${describeRecord(verdict.record)}, ${verdict.record.status === 'running' ? 'its processes are gone' : 'its start was interrupted'}); nothing of it is reused`);
      await stopRecorded(dir, verdict.record);
  }
}

/**
 * Starts the local system detached: real control planes (hub + members, CRDs installed) and the Azure side
 * (emulator + cloud-provider stand-ins for the members), each recorded in <dir>/state.json. Until everything serves,
 * everything dies with this process and the folder goes with it (a failure, SIGINT or SIGTERM leaves nothing);
 * then all of it is handed over at once, and `stopLocalSystem(dir)` ends exactly what this started.
 */
export async function startLocalSystem(options: LocalSystemOptions): Promise<LocalSystemRecord> {
  const { dir, clusters } = options;
  const log = options.log ?? (() => {});
  await prepareFolder(dir, log);
  await mkdir(dir, { recursive: true });
  const forgetFolder = removeOnExit(dir);
  const record: LocalSystemRecord = { status: 'starting', owner: process.pid, startedAt: new Date().toISOString(), clusters, processes: [] };
  let plane: ControlPlane | undefined;
  let azureSide: StartedProcess | undefined;
  try {
    await writeRecord(dir, record);
    plane = await startControlPlane({
      clusters,
      workDir: path.join(dir, 'plane'),
      detached: true,
      holdUntilReleased: true,
      crds: Object.fromEntries(clusters.map((c) => [c, {}])),
      log,
    });
    record.plane = plane.state();
    await writeRecord(dir, record);
    const members = record.plane.clusters.filter((c) => c.name !== 'hub').map((c) => ({ name: c.name, kubeconfig: c.kubeconfig }));
    const azure = await startAzureSide({ dir, members, timeoutMs: options.azureStartTimeoutMs ?? 60_000, log });
    azureSide = azure.process;
    record.processes.push(azure.process.record);
    record.azure = azure.info;
    record.status = 'running';
    await writeRecord(dir, record);
  } catch (error) {
    await azureSide?.stop();
    await plane?.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    forgetFolder();
    throw error;
  }
  plane.release();
  azureSide.release();
  forgetFolder();
  return record;
}

/** Stops exactly what the record in dir names, then removes dir. Returns false when there was nothing to stop. */
export async function stopLocalSystem(dir: string): Promise<boolean> {
  const record = await readRecord(dir);
  if (record === undefined) {
    const entries = await readdir(dir).catch(() => undefined);
    if (entries === undefined) return false;
    if (entries.length === 0) {
      await rm(dir, { recursive: true, force: true });
      return false;
    }
    throw new Error(`${dir} has no record of a local system (state.json), so nothing there is known to be local-up's; not touching it. Remove it yourself (rm -rf ${dir}) if it is an old local system's folder`);
  }
  if (record.status === 'starting' && isRunning(record.owner)) {
    throw new Error(`local-up (process ${record.owner}) is still starting in ${dir}; interrupt it (Ctrl-C), which stops everything it started`);
  }
  await stopRecorded(dir, record);
  return true;
}
