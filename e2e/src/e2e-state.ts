import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AzureRun } from './azure-scripts.js';
import type { E2eSettings } from './settings.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where `make e2e-setup` records what it resolved and started; `e2e-tests` and `e2e-cleanup` read it. */
export const E2E_DIR = path.join(REPO_ROOT, '.cache', 'e2e');
export const STATE_FILE = path.join(E2E_DIR, 'state.json');
/** The local system's folder in local mode (its own records: pids, kubeconfigs, logs). */
export const LOCAL_SYSTEM_DIR = path.join(E2E_DIR, 'local-system');

export interface E2eState {
  readonly settings: E2eSettings;
  readonly startedAt: string;
  /** Local mode: the local system's folder. */
  readonly localSystemDir?: string;
  /** Azure mode: the run's folder and id, and what e2e/azure/setup.sh created (all that e2e-cleanup removes). */
  readonly azure?: AzureRun;
}

export async function readState(file = STATE_FILE): Promise<E2eState | undefined> {
  if (!existsSync(file)) return undefined;
  return JSON.parse(await readFile(file, 'utf8')) as E2eState;
}

export async function writeState(state: E2eState, file = STATE_FILE): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(state, null, 2)}\n`);
}

export async function removeState(file = STATE_FILE): Promise<void> {
  await rm(file, { force: true });
}
