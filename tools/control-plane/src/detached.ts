import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ControlPlaneState } from './control-plane.js';
import { stopRecordedProcesses } from './processes.js';

/**
 * Stops exactly the processes a detached plane recorded in <workDir>/state.json, then removes workDir.
 * Returns the pids it had to stop.
 */
export async function stopDetached(workDir: string): Promise<number[]> {
  const stateFile = path.join(workDir, 'state.json');
  const state = JSON.parse(await readFile(stateFile, 'utf8')) as ControlPlaneState;
  // Controllers and API servers first, etcd last, as a graceful shutdown would. An API server has finished its
  // shutdown within about a second of SIGTERM but may idle long after (see Cluster.stopApiServer): 3 s is enough.
  const order = [
    { pids: state.clusters.flatMap((c) => c.pids), graceMs: 3_000 },
    { pids: [state.etcd.pid], graceMs: 10_000 },
  ];
  const stopped: number[] = [];
  for (const { pids, graceMs } of order) {
    stopped.push(...(await stopRecordedProcesses(pids, state.workDir, graceMs)));
  }
  await rm(workDir, { recursive: true, force: true });
  return stopped;
}
