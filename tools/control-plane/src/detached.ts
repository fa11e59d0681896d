import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ControlPlaneState } from './control-plane.js';
import { isRunning } from './processes.js';

async function waitGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isRunning);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    alive = alive.filter(isRunning);
  }
  return alive;
}

/** Guards against pid reuse: only a process whose command line names the plane's folder is ours. */
function belongsTo(pid: number, workDir: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(workDir);
  } catch {
    return false;
  }
}

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
    const running = pids.filter((pid) => isRunning(pid) && belongsTo(pid, state.workDir));
    for (const pid of running) process.kill(pid, 'SIGTERM');
    for (const pid of await waitGone(running, graceMs)) process.kill(pid, 'SIGKILL');
    await waitGone(running, 5_000);
    stopped.push(...running);
  }
  await rm(workDir, { recursive: true, force: true });
  return stopped;
}
