import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Fills `dir` through a staging folder beside it that is renamed into place, so a half-built `dir` is never seen
 * (an interrupted build leaves only its staging folder). When another process finished the same folder first, its
 * result is identical and is kept.
 */
export async function fillCacheDir(dir: string, fill: (staging: string) => Promise<void>): Promise<void> {
  const staging = `${dir}.building-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  await mkdir(staging);
  await fill(staging);
  await rename(staging, dir).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    await rm(staging, { recursive: true, force: true });
  });
}
