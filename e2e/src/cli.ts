/**
 * make e2e-setup / e2e-tests / e2e-cleanup (and e2e, all three with the cleanup always run).
 *   setup    resolve the settings from the environment (E2E_MODE, ENABLE_AZURE_FRONT_DOOR, upstream's AZURE_*),
 *            start the system under test (Azure mode: e2e/azure/setup.sh, after checking az) and record both in
 *            .cache/e2e/state.json
 *   tests    run the scenarios against the recorded system (Azure mode: the ledger's assumption checks first); on
 *            failure collect the agents' logs and the emulator's state
 *   cleanup  stop and remove everything setup made (also after a failed or interrupted run); a second run is a no-op
 */
import { parseArgs } from 'node:util';
import { cleanupE2e, runE2eTests, setupE2e } from './e2e-commands.js';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });

async function main(command: string | undefined): Promise<number> {
  if (command === 'setup') return setupE2e(process.env, (line) => console.error(line));
  if (command === 'tests') return runE2eTests((line) => console.error(line));
  if (command === 'cleanup') return cleanupE2e((line) => console.error(line));
  console.error('usage: e2e <setup|tests|cleanup>');
  return 2;
}

process.exitCode = await main(positionals[0]).catch((error: unknown) => {
  console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
