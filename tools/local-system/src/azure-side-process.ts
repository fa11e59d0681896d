import { existsSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AzureSideInfo } from './azure-side-info.js';
import { startManagedProcess, type StartedProcess } from './managed-process.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const AZURE_SIDE_SCRIPT = path.join(here, 'azure-side.ts');
/** tsx's loader: node runs azure-side.ts itself, so the recorded pid is the real process (no tsx wrapper in between). */
const TSX_LOADER = pathToFileURL(path.resolve(here, '../../../node_modules/tsx/dist/loader.mjs')).href;

export interface AzureSideStart {
  dir: string;
  members: { name: string; kubeconfig: string }[];
  /** azure-side.ts's other flags (--echo-backends, --timing, --edge-seed). */
  flags?: string[];
  timeoutMs: number;
  log: (line: string) => void;
}

/** Appends what a log file gained since the last call, line by line. */
function logFollower(file: string, log: (line: string) => void): () => Promise<void> {
  let offset = 0;
  let partial = '';
  return async () => {
    const handle = await open(file, 'r').catch(() => undefined);
    if (handle === undefined) return;
    try {
      const { bytesRead, buffer } = await handle.read({ position: offset, buffer: Buffer.alloc(64 * 1024) });
      offset += bytesRead;
      const lines = (partial + buffer.subarray(0, bytesRead).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') log(`azure side: ${line}`);
    } finally {
      await handle.close();
    }
  };
}

/**
 * Starts the Azure side (src/azure-side.ts: emulator + cloud-provider stand-ins) as a managed process, relays its
 * progress lines, and resolves once it has written <dir>/azure.json. On a failure or timeout it stops the process
 * with its group before throwing, so no emulator survives a failed start.
 */
export async function startAzureSide(options: AzureSideStart): Promise<{ process: StartedProcess; info: AzureSideInfo }> {
  const { dir, timeoutMs } = options;
  const logFile = path.join(dir, 'azure-side.log');
  const infoFile = path.join(dir, 'azure.json');
  const members = options.members.flatMap((m) => ['--member', `${m.name}=${m.kubeconfig}`]);
  options.log(
    `starting the Azure side: Azure emulator (ARM, edge, admin API)${options.members.length > 0 ? ` and cloud-provider stand-ins for ${options.members.map((m) => m.name).join(', ')}` : ''}…`,
  );
  const started = startManagedProcess({
    name: 'azure-side',
    command: process.execPath,
    args: ['--import', TSX_LOADER, AZURE_SIDE_SCRIPT, '--dir', dir, ...members, ...(options.flags ?? [])],
    logFile,
    marker: AZURE_SIDE_SCRIPT,
  });
  let exited = false;
  void started.exited.then(() => {
    exited = true;
  });
  const follow = logFollower(logFile, options.log);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ready = existsSync(infoFile);
      await follow();
      if (ready) return { process: started, info: JSON.parse(await readFile(infoFile, 'utf8')) as AzureSideInfo };
      if (exited) throw new Error(`the Azure side exited during start-up; see ${logFile}`);
      if (Date.now() > deadline) throw new Error(`the Azure side did not come up within ${Math.round(timeoutMs / 1000)} s; see ${logFile}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await started.stop(2_000);
    throw error;
  }
}
