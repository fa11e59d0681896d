// Test support: finds processes independently of what the local system recorded about them.
import { readdir, readFile } from 'node:fs/promises';
import { isLive } from '../managed-process.js';

/** The live processes whose command line names folder, with their process groups. */
export async function processesNaming(folder: string): Promise<{ pid: number; pgid: number }[]> {
  const found: { pid: number; pgid: number }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || !isLive(Number(entry))) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(folder)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    found.push({ pid: Number(entry), pgid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) });
  }
  return found;
}
