/**
 * `make e2e-setup` with E2E_MODE=azure refuses before creating anything when az cannot work for the subscription.
 * No real Azure can run here: the `az` on PATH is absent, or a stand-in answering as az does when not logged in or
 * without access to the subscription, and recording every call it gets.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupE2e } from './e2e-commands.js';

const SUB = '11111111-2222-3333-4444-555555555555';
const AZURE = { E2E_MODE: 'azure', AZURE_SUBSCRIPTION_ID: SUB, AZURE_RESOURCE_GROUP: 'fleet-e2e' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-azure-setup-'));
  await mkdir(path.join(dir, 'bin'));
  await mkdir(path.join(dir, 'e2e'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** An `az` that records its arguments and answers with `stderr` and exit code 1, as az does when it cannot. */
async function azAnswering(stderr: string): Promise<void> {
  const file = path.join(dir, 'bin', 'az');
  await writeFile(file, `#!/bin/sh\necho "$*" >>"${path.join(dir, 'az-calls')}"\necho "${stderr}" >&2\nexit 1\n`);
  await chmod(file, 0o755);
}

async function setup(): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const paths = { stateFile: path.join(dir, 'e2e', 'state.json'), dir: path.join(dir, 'e2e') };
  const code = await setupE2e({ ...AZURE, PATH: path.join(dir, 'bin'), HELM: path.join(dir, 'bin', 'helm') }, (line) => lines.push(line), paths);
  return { code, lines };
}

const nothingWritten = async () => {
  expect(existsSync(path.join(dir, 'e2e', 'state.json'))).toBe(false);
  expect(await readdir(path.join(dir, 'e2e'))).toEqual([]);
};

describe('make e2e-setup, E2E_MODE=azure, before anything is created', () => {
  it('refuses without az on PATH, saying how to get it (and what else is missing), and writes no state', async () => {
    const { code, lines } = await setup();
    expect(code).toBe(2);
    expect(lines).toEqual([
      'az (the Azure CLI) is not on PATH: install it (https://learn.microsoft.com/cli/azure/install-azure-cli), then az login',
      'kubectl is not on PATH: az aks install-cli installs it',
      `helm 4 is needed (the charts' --take-ownership --force-conflicts): ${path.join(dir, 'bin', 'helm')} is not there; set HELM=<path> (pnpm nx test charts-test builds one into .cache/helm/)`,
      'E2E_MODE=azure: nothing was created',
    ]);
    await nothingWritten();
  });

  it('refuses when az is not logged in, quoting az, after asking it only about the account', async () => {
    await azAnswering("ERROR: Please run 'az login' to setup account.");
    const { code, lines } = await setup();
    expect(code).toBe(2);
    expect(lines[0]).toBe(
      `az is not logged in: run az login, with an account that can use subscription ${SUB} (az said: ERROR: Please run 'az login' to setup account.)`,
    );
    expect(lines.at(-1)).toBe('E2E_MODE=azure: nothing was created');
    expect((await readFile(path.join(dir, 'az-calls'), 'utf8')).trim()).toBe(`account show --subscription ${SUB} --query id --output tsv`);
    await nothingWritten();
  });

  it('refuses when the logged-in account cannot use AZURE_SUBSCRIPTION_ID', async () => {
    await azAnswering(`ERROR: Subscription '${SUB}' not found. Check the spelling and casing and try again.`);
    const { code, lines } = await setup();
    expect(code).toBe(2);
    expect(lines[0]).toBe(
      `az cannot use subscription ${SUB} (AZURE_SUBSCRIPTION_ID): ERROR: Subscription '${SUB}' not found. Check the spelling and casing and try again.`,
    );
    await nothingWritten();
  });
});
