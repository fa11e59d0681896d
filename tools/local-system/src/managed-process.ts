import { readdirSync, readFileSync } from 'node:fs';
import { commandLineIncludes, startProcess } from '@fleet-gateway/control-plane';

/** What the state file records of a process the local system started, enough for a later `down` to stop it. */
export interface ManagedProcessRecord {
  name: string;
  pid: number;
  /** Its own process group (pgid = pid): whatever it starts is stopped with it. */
  pgid: number;
  logFile: string;
  /** Guards against pid reuse: a process of the group whose command line contains this is the one recorded. */
  marker: string;
}

export interface StartedProcess {
  readonly record: ManagedProcessRecord;
  readonly exited: Promise<number | null>;
  /** Lets it outlive this process (its record goes into the state file); until then it dies with this process. */
  release(): void;
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a process in its own process group, its output appended to logFile. Until released it dies with this
 * process (exit, SIGINT, SIGTERM: the whole group is killed), so an interrupted start leaves none running.
 */
export function startManagedProcess(spec: {
  name: string;
  command: string;
  args: string[];
  logFile: string;
  marker: string;
  /** Its whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}): StartedProcess {
  const child = startProcess(spec.name, spec.command, spec.args, spec.logFile, { detached: true, ...(spec.env ? { env: spec.env } : {}) });
  const record: ManagedProcessRecord = { name: spec.name, pid: child.pid, pgid: child.pid, logFile: spec.logFile, marker: spec.marker };
  return {
    record,
    exited: child.exited,
    release: () => child.release(),
    stop: async (graceMs) => {
      await stopManagedProcesses([record], graceMs);
    },
  };
}

function processGroupOf(pid: string): { pgid: number; zombie: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "(comm)": state, ppid, pgrp, ...; comm may itself contain spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pgid: Number(pgrp), zombie: state === 'Z' };
  } catch {
    return undefined;
  }
}

/** True while the process runs: a zombie (dead, waiting to be reaped by its parent) does not. */
export function isLive(pid: number): boolean {
  const group = processGroupOf(String(pid));
  return group !== undefined && !group.zombie;
}

/** The live (non-zombie) processes of a process group. */
export function processGroupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      const group = processGroupOf(entry);
      return group !== undefined && group.pgid === pgid && !group.zombie;
    })
    .map(Number);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group has ended in the meantime.
  }
}

async function waitGroupsGone(pgids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pgids.filter((pgid) => processGroupMembers(pgid).length > 0);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    alive = alive.filter((pgid) => processGroupMembers(pgid).length > 0);
  }
  return alive;
}

/**
 * Stops recorded processes with their groups: SIGTERM to each group, SIGKILL to those still there after graceMs.
 * Only a group one of whose processes still carries the record's marker is signalled (a reused pid is left alone).
 * Returns the records it stopped.
 */
export async function stopManagedProcesses(records: ManagedProcessRecord[], graceMs = 10_000): Promise<ManagedProcessRecord[]> {
  const owned = records.filter((r) => processGroupMembers(r.pgid).some((pid) => commandLineIncludes(pid, r.marker)));
  for (const r of owned) signalGroup(r.pgid, 'SIGTERM');
  for (const pgid of await waitGroupsGone(
    owned.map((r) => r.pgid),
    graceMs,
  ))
    signalGroup(pgid, 'SIGKILL');
  const left = await waitGroupsGone(
    owned.map((r) => r.pgid),
    5_000,
  );
  if (left.length > 0) throw new Error(`process groups ${left.join(', ')} survived SIGKILL`);
  return owned;
}
