import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './e2e-state.js';
import type { E2eSettings } from './settings.js';

/** E2E_MODE=azure's scripts (bash, linted by shellcheck in charts-test, run only where Azure is). */
export const AZURE_SCRIPTS_DIR = path.join(REPO_ROOT, 'e2e', 'azure');

/** One resource setup.sh created, as it recorded it in `<dir>/created.tsv` (cleanup.sh removes them newest first). */
export interface CreatedResource {
  readonly kind: string;
  readonly id: string;
}

/** What an Azure-mode run is: its folder, its id (the fleet-gateway-e2e tag's value) and what it made. */
export interface AzureRun {
  readonly dir: string;
  readonly runId: string;
  readonly created?: readonly CreatedResource[];
  /** setup.sh's outputs: `kubeconfig.<cluster>`, `nodeResourceGroup.<cluster>`, `afdResourceGroup`, `nodeBaseImage`, … */
  readonly outputs?: Readonly<Record<string, string>>;
}

/** The environment the scripts read (lib.sh's require_variables). */
export function scriptEnvironment(azure: NonNullable<E2eSettings['azure']>, run: AzureRun, helm: string, environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...environment,
    AZURE_SUBSCRIPTION_ID: azure.subscriptionId,
    AZURE_RESOURCE_GROUP: azure.resourceGroup,
    AZURE_NETWORK_SETTING: azure.networkSetting,
    LOCATION: azure.location,
    E2E_AZURE_DIR: run.dir,
    E2E_RUN_ID: run.runId,
    REPO_ROOT,
    HELM: helm,
  };
}

/** Runs e2e/azure/<script> with its output on this process's stderr; its exit code. */
export function runAzureScript(script: 'setup.sh' | 'cleanup.sh', environment: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(AZURE_SCRIPTS_DIR, script)], { env: environment, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Pure: created.tsv's lines (`<kind>\t<id>`). */
export const parseCreated = (text: string): CreatedResource[] =>
  text
    .split('\n')
    .filter((line) => line.includes('\t'))
    .map((line) => ({ kind: line.slice(0, line.indexOf('\t')), id: line.slice(line.indexOf('\t') + 1) }));

/** Pure: outputs.env's `key=value` lines. */
export const parseOutputs = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

/** What setup.sh recorded so far in `dir` (also after an interrupted run). */
export async function readAzureRecords(dir: string): Promise<{ created: CreatedResource[]; outputs: Record<string, string> }> {
  const text = async (file: string) => (existsSync(path.join(dir, file)) ? readFile(path.join(dir, file), 'utf8') : '');
  return { created: parseCreated(await text('created.tsv')), outputs: parseOutputs(await text('outputs.env')) };
}
