import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DefaultAzureCredential } from '@azure/identity';
import { readFidelityLedger } from '@fleet-gateway/azure-emulator';
import { assumptionResults, runAssumptionChecks } from './assumption-checks.js';
import type { AzureRun } from './azure-scripts.js';
import { E2E_DIR } from './e2e-state.js';
import { publicArmSend } from './public-arm.js';
import type { E2eSettings } from './settings.js';

/** e2e/azure/lib.sh's OWNER_TAG: cleanup.sh deletes only what carries it with the run's id. */
const OWNER_TAG = 'fleet-gateway-e2e';

/**
 * Azure mode, before the scenarios: the automated assumption checks on a throwaway profile in the run's AFD resource
 * group (recorded in created.tsv first, so that e2e-cleanup removes it if this is interrupted), written with the
 * manual ones to .cache/e2e/assumption-checks-<run>.json, which e2e-cleanup leaves. Returns the file and a summary.
 */
export async function recordAssumptionChecks(azure: NonNullable<E2eSettings['azure']>, run: AzureRun): Promise<{ file: string; summary: string }> {
  const resourceGroup = run.outputs?.['afdResourceGroup'] ?? azure.resourceGroup;
  const resourceGroupPath = `/subscriptions/${azure.subscriptionId}/resourceGroups/${resourceGroup}`;
  const profileName = `fgw-e2e-${run.runId}-assumptions`;
  await appendFile(path.join(run.dir, 'created.tsv'), `profile\t${resourceGroupPath}/providers/Microsoft.Cdn/profiles/${profileName}\n`);
  const answers = await runAssumptionChecks(publicArmSend(new DefaultAzureCredential()), {
    resourceGroupPath,
    profileName,
    tags: { [OWNER_TAG]: run.runId },
    // AFD's writes take minutes (ledger A16); polling every 10 s stays far below ARM's read limits.
    pollMs: 10_000,
    timeoutMs: 30 * 60_000,
  });
  const results = assumptionResults(answers, readFidelityLedger().assumptions, `Azure subscription ${azure.subscriptionId}, ${resourceGroup}`, new Date());
  const file = path.join(E2E_DIR, `assumption-checks-${run.runId}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  const differing = answers.filter((a) => !a.matchesLedger).map((a) => `${a.assumption} (${a.step}: ${a.status} ${a.code ?? ''})`);
  const summary = `${results.summary.answers} answers, ${results.summary.matchingLedger} as the ledger says${differing.length > 0 ? `; differing: ${differing.join(', ')}` : ''}; ${results.manual.length} checks listed as manual`;
  return { file, summary };
}
