import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ControlPlaneState } from '@fleet-gateway/control-plane';
import type { AzureSideInfo } from './azure-side-info.js';
import type { ManagedProcessRecord } from './managed-process.js';

/**
 * <dir>/state.json: what `up` started, written before anything starts and completed (status "running") only once
 * everything serves. The folder is the local system's only while this record says so.
 */
export interface LocalSystemRecord {
  status: 'starting' | 'running';
  /** The pid of the `up` that wrote it. */
  owner: number;
  startedAt: string;
  clusters: string[];
  /** The detached control plane (its own record is <dir>/plane/state.json). */
  plane?: ControlPlaneState;
  /** Processes in their own groups: the Azure side now, the agents next. */
  processes: ManagedProcessRecord[];
  azure?: AzureSideInfo;
}

export const STATE_FILE = 'state.json';

export async function readRecord(dir: string): Promise<LocalSystemRecord | undefined> {
  const text = await readFile(path.join(dir, STATE_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const record = JSON.parse(text) as Partial<LocalSystemRecord>;
    const valid = (record.status === 'starting' || record.status === 'running') && typeof record.owner === 'number' && Array.isArray(record.processes);
    return valid ? (record as LocalSystemRecord) : undefined;
  } catch {
    return undefined;
  }
}

export async function writeRecord(dir: string, record: LocalSystemRecord): Promise<void> {
  // Written whole or not at all: a reader never sees half a record.
  const file = path.join(dir, STATE_FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(record, null, 2));
  await rename(`${file}.tmp`, file);
}

/** Every pid the record names (control plane and managed processes). */
export function recordedPids(record: LocalSystemRecord): number[] {
  const plane = record.plane ? [record.plane.etcd.pid, ...record.plane.clusters.flatMap((c) => c.pids)] : [];
  return [...plane, ...record.processes.map((p) => p.pid)].filter((pid) => pid > 0);
}

/** What `up` finds in its folder, and so what it does (see judgeFolder). */
export type FolderVerdict =
  | { kind: 'fresh' }
  | { kind: 'running'; record: LocalSystemRecord }
  | { kind: 'starting'; record: LocalSystemRecord }
  | { kind: 'remains'; record: LocalSystemRecord }
  | { kind: 'unrecorded'; entries: string[] };

/**
 * A start never reuses data: an absent or empty folder is used; a folder with a record of ours is refused while
 * what it records still runs (a running system, or an `up` still starting), and is otherwise the remains of an
 * interrupted or stopped system, which `up` stops and wipes; a non-empty folder without a record is refused, as
 * nothing proves it ours (it may be an etcd data folder of a run whose record is lost, or someone else's files).
 */
export function judgeFolder(entries: string[] | undefined, record: LocalSystemRecord | undefined, isRunning: (pid: number) => boolean): FolderVerdict {
  if (record === undefined) return entries === undefined || entries.length === 0 ? { kind: 'fresh' } : { kind: 'unrecorded', entries };
  if (record.status === 'starting' && isRunning(record.owner)) return { kind: 'starting', record };
  if (record.status === 'running' && recordedPids(record).some(isRunning)) return { kind: 'running', record };
  return { kind: 'remains', record };
}
