import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startLocalSystem, stopLocalSystem } from '@fleet-gateway/local-system';
import { E2E_DIR, LOCAL_SYSTEM_DIR, readState, removeState, REPO_ROOT, STATE_FILE, writeState } from './e2e-state.js';
import { readE2eSettings, type E2eSettings } from './settings.js';
import { E2E_CLUSTERS, E2E_EDGE_SEED, E2E_MANUAL_MEMBER } from './system-under-test.js';

type Log = (line: string) => void;

const sameSettings = (a: E2eSettings, b: E2eSettings) => JSON.stringify(a) === JSON.stringify(b);

/** `make e2e-setup`: resolves the settings, starts the system under test, records both. Exit code. */
export async function setupE2e(environment: NodeJS.ProcessEnv, log: Log): Promise<number> {
  const result = readE2eSettings(environment);
  if (!result.ok) {
    for (const error of result.errors) log(error);
    return 2;
  }
  const { settings } = result;
  const existing = await readState();
  if (existing) {
    if (sameSettings(existing.settings, settings)) {
      log(`an e2e system with these settings is already set up (${STATE_FILE}); run make e2e-tests, or make e2e-cleanup to start over`);
      return 0;
    }
    log(`an e2e system with other settings is set up (${JSON.stringify(existing.settings)}); run make e2e-cleanup first`);
    return 2;
  }
  if (settings.mode === 'azure') {
    log('E2E_MODE=azure: the scripts that create the AKS clusters, images and role assignments are not part of this build yet; nothing was created');
    return 2;
  }
  log(`setting up the local e2e system in ${LOCAL_SYSTEM_DIR} (Front Door scenarios ${settings.frontDoor ? 'on' : 'off: set ENABLE_AZURE_FRONT_DOOR=true to add them'})`);
  // Recorded first, so that a cleanup after an interrupted set-up knows there is something to remove.
  await writeState({ settings, startedAt: new Date().toISOString(), localSystemDir: LOCAL_SYSTEM_DIR });
  try {
    await startLocalSystem({ dir: LOCAL_SYSTEM_DIR, clusters: [...E2E_CLUSTERS], withAgents: true, sample: false, manualApproval: [E2E_MANUAL_MEMBER], timing: 'fast', edgeSeed: E2E_EDGE_SEED, log });
  } catch (error) {
    await removeState();
    throw error;
  }
  log(`the e2e system is up; run: make e2e-tests (settings recorded in ${STATE_FILE})`);
  return 0;
}

/** `make e2e-tests`: the scenarios against the recorded system; on failure, the logs go to a folder. Exit code. */
export async function runE2eTests(log: Log): Promise<number> {
  const state = await readState();
  if (!state) {
    log('no e2e system is set up; run make e2e-setup first');
    return 2;
  }
  const vitest = path.join(REPO_ROOT, 'node_modules', '.bin', 'vitest');
  const code = await new Promise<number>((resolve) => {
    const child = spawn(vitest, ['run', '--config', path.join(REPO_ROOT, 'e2e', 'vitest.config.ts')], {
      stdio: 'inherit',
      env: { ...process.env, E2E_STATE_FILE: STATE_FILE },
    });
    child.once('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0 && state.localSystemDir) log(`the scenarios failed; logs and the emulator's state: ${await collectLogs(state.localSystemDir)}`);
  return code;
}

/** Copies every log of the local system and the emulator's state dump into `parent`/logs-<time>/ (default .cache/e2e/). */
export async function collectLogs(localSystemDir: string, parent = E2E_DIR): Promise<string> {
  const target = path.join(parent, `logs-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(target, { recursive: true });
  for (const file of (await readdir(localSystemDir).catch(() => [] as string[])).filter((f) => f.endsWith('.log'))) {
    await copyFile(path.join(localSystemDir, file), path.join(target, file));
  }
  const azureFile = path.join(localSystemDir, 'azure.json');
  if (existsSync(azureFile)) {
    const { adminUrl } = JSON.parse(await readFile(azureFile, 'utf8')) as { adminUrl: string };
    const dump = await fetch(`${adminUrl}/state`).then((r) => r.text()).catch((error: unknown) => `could not read the emulator's state: ${String(error)}`);
    await writeFile(path.join(target, 'emulator-state.json'), dump);
  }
  return target;
}

/** `make e2e-cleanup`: removes everything e2e-setup made, also after a failed or interrupted run; a no-op when there is nothing. */
export async function cleanupE2e(log: Log): Promise<number> {
  const state = await readState();
  const found = state !== undefined || existsSync(LOCAL_SYSTEM_DIR);
  if (!found) {
    log('nothing to clean up');
    return 0;
  }
  await stopLocalSystem(state?.localSystemDir ?? LOCAL_SYSTEM_DIR);
  await removeState();
  log(`removed the e2e system (${LOCAL_SYSTEM_DIR}) and its state`);
  return 0;
}
