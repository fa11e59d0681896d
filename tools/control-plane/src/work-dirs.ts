import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isRunning } from './processes.js';

const OWNED = /^fleet-gateway-cp-(\d+)-/;

/**
 * Folders of planes whose owner is gone without cleaning up: it was SIGKILLed, so no exit hook ran (its processes
 * went with it, by their parent-death signal), and its janitor did not finish either (killed too, e.g. with the
 * whole session). The owner's pid in the name tells them from folders in use.
 */
export async function staleWorkDirs(parent = tmpdir()): Promise<string[]> {
  const names = await readdir(parent).catch(() => [] as string[]);
  return names
    .filter((name) => {
      const owner = OWNED.exec(name)?.[1];
      return owner !== undefined && !isRunning(Number(owner));
    })
    .map((name) => path.join(parent, name));
}

export async function removeStaleWorkDirs(parent = tmpdir()): Promise<void> {
  for (const dir of await staleWorkDirs(parent)) await rm(dir, { recursive: true, force: true });
}

/** A new temporary folder for a plane this process owns; leftovers of dead owners go first. */
export async function createWorkDir(): Promise<string> {
  await removeStaleWorkDirs();
  return mkdtemp(path.join(tmpdir(), `fleet-gateway-cp-${process.pid}-`));
}
