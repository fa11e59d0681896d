import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startLocalSystem, stopLocalSystem } from '@fleet-gateway/local-system';
import { recordAssumptionChecks } from './azure-assumption-run.js';
import { azurePreflight, runCommand } from './azure-preflight.js';
import { readAzureRecords, runAzureScript, scriptEnvironment, type AzureRun } from './azure-scripts.js';
import { E2E_DIR, LOCAL_SYSTEM_DIR, readState, removeState, REPO_ROOT, STATE_FILE, writeState, type E2eState } from './e2e-state.js';
import { readE2eSettings, type E2eSettings } from './settings.js';
import { E2E_CLUSTERS, E2E_EDGE_SEED, E2E_MANUAL_MEMBER, E2E_MEMBERS } from './system-under-test.js';

type Log = (line: string) => void;

const sameSettings = (a: E2eSettings, b: E2eSettings) => JSON.stringify(a) === JSON.stringify(b);

/** Where the commands keep their records (tests point them at a folder of their own). */
export interface E2ePaths {
  readonly stateFile: string;
  readonly dir: string;
}
const DEFAULT_PATHS: E2ePaths = { stateFile: STATE_FILE, dir: E2E_DIR };

/** Upstream's helm is Helm 3; the charts need Helm 4 (HELM=<path>, e.g. the one charts-test builds into .cache/helm/). */
const helmOf = (environment: NodeJS.ProcessEnv): string => environment['HELM'] || 'helm';

/** `make e2e-setup`: resolves the settings, starts the system under test, records both. Exit code. */
export async function setupE2e(environment: NodeJS.ProcessEnv, log: Log, paths: E2ePaths = DEFAULT_PATHS): Promise<number> {
  const result = readE2eSettings(environment);
  if (!result.ok) {
    for (const error of result.errors) log(error);
    return 2;
  }
  const { settings } = result;
  if (settings.azure) {
    // Before anything else: Azure mode creates resources that cost money, so nothing starts without a working az.
    const problems = await azurePreflight(settings.azure.subscriptionId, helmOf(environment), environment);
    if (problems.length > 0) {
      for (const problem of problems) log(problem);
      log('E2E_MODE=azure: nothing was created');
      return 2;
    }
  }
  const existing = await readState(paths.stateFile);
  if (existing) {
    if (sameSettings(existing.settings, settings)) {
      log(`an e2e system with these settings is already set up (${paths.stateFile}); run make e2e-tests, or make e2e-cleanup to start over`);
      return 0;
    }
    log(`an e2e system with other settings is set up (${JSON.stringify(existing.settings)}); run make e2e-cleanup first`);
    return 2;
  }
  if (settings.azure) return setupAzure(settings, settings.azure, environment, log, paths);
  log(
    `setting up the local e2e system in ${LOCAL_SYSTEM_DIR} (Front Door scenarios ${settings.frontDoor ? 'on' : 'off: set ENABLE_AZURE_FRONT_DOOR=true to add them'})`,
  );
  // Recorded first, so that a cleanup after an interrupted set-up knows there is something to remove.
  await writeState({ settings, startedAt: new Date().toISOString(), localSystemDir: LOCAL_SYSTEM_DIR }, paths.stateFile);
  try {
    await startLocalSystem({
      dir: LOCAL_SYSTEM_DIR,
      clusters: [...E2E_CLUSTERS],
      withAgents: true,
      sample: false,
      manualApproval: [E2E_MANUAL_MEMBER],
      timing: 'fast',
      edgeSeed: E2E_EDGE_SEED,
      log,
    });
  } catch (error) {
    await removeState(paths.stateFile);
    throw error;
  }
  log(`the e2e system is up; run: make e2e-tests (settings recorded in ${paths.stateFile})`);
  return 0;
}

/**
 * Azure mode: e2e/azure/setup.sh in a folder of this run's own, recorded in the state before it starts and again with
 * everything it created when it ends (also when it fails, so that e2e-cleanup removes what was made).
 */
async function setupAzure(
  settings: E2eSettings,
  azure: NonNullable<E2eSettings['azure']>,
  environment: NodeJS.ProcessEnv,
  log: Log,
  paths: E2ePaths,
): Promise<number> {
  const runId = randomBytes(3).toString('hex');
  const run: AzureRun = { dir: path.join(paths.dir, `azure-${runId}`), runId };
  log(
    `E2E_MODE=azure: creating the e2e system in subscription ${azure.subscriptionId}, resource group ${azure.resourceGroup} (run ${runId}; this costs money until make e2e-cleanup)`,
  );
  const startedAt = new Date().toISOString();
  await mkdir(run.dir, { recursive: true });
  await writeState({ settings, startedAt, azure: run }, paths.stateFile);
  const code = await runAzureScript('setup.sh', scriptEnvironment(azure, run, helmOf(environment), environment));
  await writeState({ settings, startedAt, azure: { ...run, ...(await readAzureRecords(run.dir)) } }, paths.stateFile);
  if (code !== 0) {
    log(`e2e/azure/setup.sh failed (exit code ${code}); what it created is recorded in ${paths.stateFile}: run make e2e-cleanup`);
    return code;
  }
  log(`the Azure e2e system is up; run: make e2e-tests (recorded in ${paths.stateFile})`);
  return 0;
}

/** `make e2e-tests`: the scenarios against the recorded system; on failure, the logs go to a folder. Exit code. */
export async function runE2eTests(log: Log): Promise<number> {
  const state = await readState();
  if (!state) {
    log('no e2e system is set up; run make e2e-setup first');
    return 2;
  }
  if (state.azure && state.settings.azure) {
    // The emulator's named assumptions, asked of real AFD; the answers are kept whatever the scenarios do.
    const { file, summary } = await recordAssumptionChecks(state.settings.azure, state.azure);
    log(`assumption checks against Azure: ${summary} (${file})`);
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
  if (code !== 0 && state.azure) log(`the scenarios failed; the agents' logs: ${await collectAzureLogs(state.azure)}`);
  return code;
}

async function newLogsDir(parent = E2E_DIR): Promise<string> {
  const target = path.join(parent, `logs-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(target, { recursive: true });
  return target;
}

/** Azure mode: each agent's pod logs (the charts' Deployments in fleet-system) into .cache/e2e/logs-<time>/. */
async function collectAzureLogs(run: AzureRun): Promise<string> {
  const target = await newLogsDir();
  for (const [cluster, app] of [['hub', 'hub-gateway'], ...E2E_MEMBERS.map((m) => [m, 'member-discovery'])] as const) {
    const kubeconfig = run.outputs?.[`kubeconfig.${cluster}`] ?? '';
    const answer = await runCommand(
      'kubectl',
      [
        '--kubeconfig',
        kubeconfig,
        '--namespace',
        'fleet-system',
        'logs',
        '--selector',
        `app.kubernetes.io/name=${app}`,
        '--all-containers',
        '--prefix',
        '--tail=-1',
      ],
      process.env,
    );
    await writeFile(path.join(target, `${app}-${cluster}.log`), answer.found ? `${answer.stdout}${answer.stderr}` : 'kubectl is not on PATH\n');
  }
  return target;
}

/** Copies every log of the local system and the emulator's state dump into `parent`/logs-<time>/ (default .cache/e2e/). */
export async function collectLogs(localSystemDir: string, parent = E2E_DIR): Promise<string> {
  const target = await newLogsDir(parent);
  for (const file of (await readdir(localSystemDir).catch(() => [] as string[])).filter((f) => f.endsWith('.log'))) {
    await copyFile(path.join(localSystemDir, file), path.join(target, file));
  }
  const azureFile = path.join(localSystemDir, 'azure.json');
  if (existsSync(azureFile)) {
    const { adminUrl } = JSON.parse(await readFile(azureFile, 'utf8')) as { adminUrl: string };
    const dump = await fetch(`${adminUrl}/state`)
      .then((r) => r.text())
      .catch((error: unknown) => `could not read the emulator's state: ${String(error)}`);
    await writeFile(path.join(target, 'emulator-state.json'), dump);
  }
  return target;
}

/** `make e2e-cleanup`: removes everything e2e-setup made, also after a failed or interrupted run; a no-op when there is nothing. */
export async function cleanupE2e(log: Log, environment: NodeJS.ProcessEnv = process.env, paths: E2ePaths = DEFAULT_PATHS): Promise<number> {
  const state = await readState(paths.stateFile);
  if (state?.azure) return cleanupAzure(state, state.azure, environment, log, paths);
  const found = state !== undefined || existsSync(LOCAL_SYSTEM_DIR);
  if (!found) {
    log('nothing to clean up');
    return 0;
  }
  await stopLocalSystem(state?.localSystemDir ?? LOCAL_SYSTEM_DIR);
  await removeState(paths.stateFile);
  log(`removed the e2e system (${LOCAL_SYSTEM_DIR}) and its state`);
  return 0;
}

/** Azure mode: e2e/azure/cleanup.sh removes what the run recorded (only what carries its tag); then its records go. */
async function cleanupAzure(state: E2eState, run: AzureRun, environment: NodeJS.ProcessEnv, log: Log, paths: E2ePaths): Promise<number> {
  const azure = state.settings.azure;
  if (!azure) throw new Error(`${paths.stateFile} records an Azure run without the Azure settings`);
  const code = await runAzureScript('cleanup.sh', scriptEnvironment(azure, run, helmOf(environment), environment));
  if (code !== 0) {
    log(`e2e/azure/cleanup.sh failed (exit code ${code}); the state is kept (${paths.stateFile}): fix what it said and run make e2e-cleanup again`);
    return code;
  }
  await rm(run.dir, { recursive: true, force: true });
  await removeState(paths.stateFile);
  log(`removed the Azure e2e system of run ${run.runId} and its state`);
  return 0;
}
