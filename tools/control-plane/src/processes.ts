import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';

/** A child process of the harness whose output goes to a log file. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly exited: Promise<number | null>;
  readonly logFile: string;
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
const temporaryDirs = new Set<string>();
let hooksInstalled = false;

/**
 * Children must not outlive the harness: on a normal exit they are killed synchronously, and on SIGINT/SIGTERM
 * they are killed before the signal's default action runs.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  const killAll = (): void => {
    for (const child of live) child.kill('SIGKILL');
    live.clear();
    for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    temporaryDirs.clear();
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

/** A folder that goes when this process goes, unless released first (after a normal stop removed it). */
export function removeOnExit(dir: string): () => void {
  installExitHooks();
  temporaryDirs.add(dir);
  return () => temporaryDirs.delete(dir);
}

/**
 * Starts a child whose stdout and stderr append to logFile. A detached child outlives this process (the local
 * system started by `make e2e-setup`); its pid goes into a state file for the stop command.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  logFile: string,
  options: { detached?: boolean } = {},
): ManagedProcess {
  const detached = options.detached === true;
  if (!detached) installExitHooks();
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', log, log], detached });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  if (detached) child.unref();
  else live.add(child);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
  });
  const pid = child.pid;
  return {
    name,
    pid,
    exited,
    logFile,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** True while a process with this pid exists (and is not a zombie we could reap). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
