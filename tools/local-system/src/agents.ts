import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { isRunning, stopRecordedProcesses } from '@fleet-gateway/control-plane';
import type { AgentLaunch } from './agent-launches.js';

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
 * Starts each agent's bundle under this Node, detached, its JSON log in `<dir>/<name>.log`, and records the pids
 * before waiting for anything, so that a stop finds every one of them. Only PATH and the launch's environment reach
 * the agent, as in a pod.
 */
export async function startAgents(dir: string, launches: readonly AgentLaunch[]): Promise<RunningAgent[]> {
  const running: RunningAgent[] = [];
  for (const launch of launches) {
    if (!existsSync(launch.bundle)) throw new Error(`${launch.bundle} does not exist; build it with: pnpm nx run-many -t bundle -p hub-gateway,member-discovery`);
    const logFile = path.join(dir, `${launch.name}.log`);
    const log = openSync(logFile, 'a');
    const child = spawn(process.execPath, [launch.bundle, ...launch.args], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { PATH: process.env.PATH ?? '', ...launch.env },
    });
    closeSync(log);
    child.unref();
    if (child.pid === undefined) throw new Error(`${launch.name} did not start; see ${logFile}`);
    running.push({ name: launch.name, pid: child.pid, bundle: launch.bundle, healthUrl: launch.healthUrl, metricsUrl: launch.metricsUrl, logFile });
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
      if (!isRunning(agent.pid)) throw new Error(`${agent.name} exited during start-up; see ${agent.logFile}:\n${readFileSync(agent.logFile, 'utf8').slice(-2000)}`);
      const healthy = await fetch(`${agent.healthUrl}/healthz`).then((r) => r.ok).catch(() => false);
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

/** Stops the recorded agents (each only if its pid still runs its bundle): SIGTERM, then SIGKILL after 10 s. */
export async function stopAgents(dir: string): Promise<void> {
  if (!existsSync(agentsFile(dir))) return;
  const agents = JSON.parse(await readFile(agentsFile(dir), 'utf8')) as RunningAgent[];
  for (const agent of agents) await stopRecordedProcesses([agent.pid], agent.bundle, 10_000);
}

/** `count` ports free on 127.0.0.1 now (each bound and released together, so they are distinct). */
export async function freePorts(count: number): Promise<number[]> {
  const listening = (): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  const servers = await Promise.all(Array.from({ length: count }, listening));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
