import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalSystem, stopLocalSystem } from '@fleet-gateway/local-system';
import type { TestProject } from 'vitest/node';
import { collectLogs } from './e2e-commands.js';
import { readState, REPO_ROOT } from './e2e-state.js';
import { azureSystemInfoOf, E2E_CLUSTERS, E2E_EDGE_SEED, E2E_MANUAL_MEMBER, systemInfoOf, type SystemInfo } from './system-under-test.js';

declare module 'vitest' {
  export interface ProvidedContext {
    system: SystemInfo;
  }
}

/** Where the suite's own run leaves the logs of a failed run (beside the JSON report, which CI keeps). */
export const FAILED_RUN_LOGS = path.join(REPO_ROOT, 'test-results', 'e2e');

/** A test or a whole file failed, or an error escaped the tests: the run fails. */
function runFailed(project: TestProject): boolean {
  const { state } = project.vitest;
  return state.getTestModules().some((module) => !module.ok()) || state.getUnhandledErrors().length > 0;
}

/**
 * The system the scenarios run against: the one `make e2e-setup` recorded (E2E_STATE_FILE, set by `make e2e-tests`;
 * local or Azure mode),
 * or — under `make test` — a local system of its own, started with every agent and the fast timing, and stopped
 * after the last scenario, its logs and the emulator's state collected first into test-results/e2e/ when the run
 * failed (`make e2e-tests` collects its own, from the recorded system). Under `make test` the Front Door scenarios
 * always run (CI must cover them).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stateFile = process.env['E2E_STATE_FILE'];
  if (stateFile) {
    const state = await readState(stateFile);
    if (state?.azure && state.settings.azure) {
      project.provide('system', azureSystemInfoOf(state.settings.azure.subscriptionId, state.azure, state.settings.frontDoor));
      return async () => {};
    }
    if (!state?.localSystemDir) throw new Error(`${stateFile} records no system; run make e2e-setup`);
    project.provide('system', await systemInfoOf(state.localSystemDir, state.settings.frontDoor));
    return async () => {};
  }
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'fleet-gateway-e2e-')), 'local-system');
  const log = (line: string) => process.stderr.write(`[e2e set-up] ${line}\n`);
  await startLocalSystem({
    dir,
    clusters: [...E2E_CLUSTERS],
    withAgents: true,
    sample: false,
    manualApproval: [E2E_MANUAL_MEMBER],
    timing: 'fast',
    edgeSeed: E2E_EDGE_SEED,
    log,
  });
  project.provide('system', await systemInfoOf(dir, true));
  return async () => {
    try {
      if (runFailed(project)) log(`the run failed; logs and the emulator's state: ${await collectLogs(dir, FAILED_RUN_LOGS)}`);
    } finally {
      await stopLocalSystem(dir);
      await rm(path.dirname(dir), { recursive: true, force: true });
    }
  };
}
