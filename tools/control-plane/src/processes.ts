import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';

/** A child process of the harness whose output goes to a log file. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly exited: Promise<number | null>;
  readonly logFile: string;
  stop(graceMs?: number): Promise<void>;
  /** Lets a detached child outlive this process from now on (until then it dies with it, like any other). */
  release(): void;
}

const live = new Set<ChildProcess>();
/** Detached children lead their own process group: what they start goes with them. */
const groupLeaders = new WeakSet<ChildProcess>();
const temporaryDirs = new Set<string>();
let hooksInstalled = false;

// util-linux's setpriv (essential on Debian) makes the kernel SIGKILL a child when its parent dies, so that even a
// SIGKILLed owner, which runs no exit hook, leaves no control-plane process behind.
const SETPRIV = '/usr/bin/setpriv';
const parentDeathSignal = existsSync(SETPRIV);

function killGroupOrChild(child: ChildProcess): void {
  if (child.pid === undefined || !groupLeaders.has(child)) {
    child.kill('SIGKILL');
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

function killAll(): void {
  for (const child of live) killGroupOrChild(child);
  // Removing a folder while a SIGKILLed etcd still writes into it fails and retries; a test runner that SIGTERMs its
  // worker SIGKILLs it 500 ms later (Vitest 5), which would cut the removal short. So first wait, bounded, until
  // each child is really dead.
  waitUntilDead(
    [...live].map((child) => child.pid),
    2_000,
  );
  live.clear();
  for (const dir of temporaryDirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    } catch {
      // Its janitor removes it once this process is gone.
    }
  }
  temporaryDirs.clear();
  // The janitors stay: each removes its folder again once this process is gone (a file system call still in flight
  // here can recreate part of it) and then exits by itself.
}

/** Dead: gone, or a zombie (its files closed; Node reaps it only when the event loop runs again). */
function isDead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Exit hooks must be synchronous, hence a blocking wait (5 ms steps) rather than the children's exit events. */
function waitUntilDead(pids: readonly (number | undefined)[], timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  const step = new Int32Array(new SharedArrayBuffer(4));
  while (pids.some((pid) => pid !== undefined && !isDead(pid)) && Date.now() < deadline) Atomics.wait(step, 0, 0, 5);
}

/**
 * Children must not outlive the harness: on a normal exit they are killed synchronously, on SIGINT, SIGTERM or
 * SIGHUP (Ctrl-C, a stop, a closed terminal) before the signal's default action runs, and in a forked worker (a test
 * runner's) as soon as its parent goes away: a runner killed by a signal leaves its workers running, and nothing
 * would ever stop their children.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
  if (process.channel) process.once('disconnect', killAll);
}

// Waits for the owner ($0) to die, then removes the folder ($1), retrying while a dying child still writes into it.
const JANITOR_SCRIPT =
  'while kill -0 "$0" 2>/dev/null; do sleep 0.2; done; for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$1"; [ -e "$1" ] || exit 0; sleep 0.2; done';

/**
 * A folder that goes when this process goes, unless released first (after a normal stop removed it). The exit hooks
 * remove it; for an owner that dies without running them (SIGKILLed — as Vitest 5's watchdog does to the workers of
 * a killed runner), and for whatever a call still in flight recreated, a small detached janitor shell removes it once
 * the owner is gone. The janitor is not a parent-death child (it must outlive the owner): it is ended on release,
 * and otherwise exits by itself once the folder is gone.
 */
export function removeOnExit(dir: string): () => void {
  installExitHooks();
  temporaryDirs.add(dir);
  const janitor = spawn('/bin/sh', ['-c', JANITOR_SCRIPT, String(process.pid), dir], { detached: true, stdio: 'ignore' });
  janitor.unref();
  return () => {
    janitor.kill('SIGKILL');
    return temporaryDirs.delete(dir);
  };
}

/**
 * Starts a child whose stdout and stderr append to logFile. Every child dies with this process until released; a
 * detached child (the local system started by `make e2e-setup`) can then be released to outlive it, its pid going
 * into a state file for the stop command.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  logFile: string,
  options: { detached?: boolean; env?: NodeJS.ProcessEnv } = {},
): ManagedProcess {
  const detached = options.detached === true;
  installExitHooks();
  const log = openSync(logFile, 'a');
  const [file, argv] = !detached && parentDeathSignal ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
  const child = spawn(file, argv, { stdio: ['ignore', log, log], detached, ...(options.env ? { env: options.env } : {}) });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  live.add(child);
  if (detached) groupLeaders.add(child);
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
    release() {
      if (!detached) throw new Error(`${name} was not started detached and cannot outlive this process`);
      live.delete(child);
      child.unref();
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

/** Guards against pid reuse: only a process whose command line contains marker is the one we recorded. */
export function commandLineIncludes(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

async function waitGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isRunning);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    alive = alive.filter(isRunning);
  }
  return alive;
}

/**
 * Stops recorded processes that are not our children (a detached plane, the local system's Azure side): SIGTERM,
 * then SIGKILL after graceMs, only for pids whose command line still contains marker. Returns the pids it stopped.
 */
export async function stopRecordedProcesses(pids: number[], marker: string, graceMs: number): Promise<number[]> {
  const running = pids.filter((pid) => isRunning(pid) && commandLineIncludes(pid, marker));
  for (const pid of running) process.kill(pid, 'SIGTERM');
  for (const pid of await waitGone(running, graceMs)) process.kill(pid, 'SIGKILL');
  await waitGone(running, 5_000);
  return running;
}
