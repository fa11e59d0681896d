import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLaunch } from './agent-launches.js';
import { isLive, startManagedProcess, type StartedProcess } from './managed-process.js';

/** What `<dir>/agents.json` records of each agent process the local system started. */
export interface RunningAgent {
  readonly name: string;
  readonly pid: number;
  readonly bundle: string;
  readonly healthUrl: string;
  readonly metricsUrl: string;
  readonly logFile: string;
}

const agentsFile = (dir: string) => path.join(dir, 'agents.json');

/**
 * Starts each agent's bundle under this Node, after the launch's node flags, as a managed process (its own process
 * group, its JSON log in `<dir>/<name>.log`; it dies with this process until released), and records each in
 * `<dir>/agents.json` for the end-to-end suites. Only PATH and the launch's environment reach the agent, as in a pod.
 */
export async function startAgents(dir: string, launches: readonly AgentLaunch[], started: StartedProcess[]): Promise<RunningAgent[]> {
  const running: RunningAgent[] = [];
  for (const launch of launches) {
    if (!existsSync(launch.bundle))
      throw new Error(`${launch.bundle} does not exist; build it with: pnpm nx run-many -t bundle -p hub-gateway,member-discovery`);
    const logFile = path.join(dir, `${launch.name}.log`);
    const agent = startManagedProcess({
      name: launch.name,
      command: process.execPath,
      args: [...launch.nodeFlags, launch.bundle, ...launch.args],
      logFile,
      marker: launch.bundle,
      env: { PATH: process.env.PATH ?? '', ...launch.env },
    });
    started.push(agent);
    running.push({ name: launch.name, pid: agent.record.pid, bundle: launch.bundle, healthUrl: launch.healthUrl, metricsUrl: launch.metricsUrl, logFile });
    await writeFile(agentsFile(dir), JSON.stringify(running, null, 2));
  }
  return running;
}

/** Waits until every agent answers /healthz, saying which it waits for; an agent that exits fails with its log's tail. */
export async function waitForAgents(agents: readonly RunningAgent[], progress: (line: string) => void, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(agents.map((a) => a.name));
  let lastReport = 0;
  while (pending.size > 0) {
    for (const agent of agents.filter((a) => pending.has(a.name))) {
      if (!isLive(agent.pid))
        throw new Error(`${agent.name} exited during start-up; see ${agent.logFile}:\n${readFileSync(agent.logFile, 'utf8').slice(-2000)}`);
      const healthy = await fetch(`${agent.healthUrl}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (healthy) {
        pending.delete(agent.name);
        progress(`${agent.name} is up (pid ${agent.pid}, health ${agent.healthUrl}, metrics ${agent.metricsUrl}/metrics, log ${agent.logFile})`);
      }
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) throw new Error(`${[...pending].join(', ')} did not answer /healthz within ${Math.round(timeoutMs / 1000)} s`);
    if (Date.now() - lastReport > 3_000) {
      progress(`waiting for ${[...pending].join(', ')} to answer /healthz`);
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
