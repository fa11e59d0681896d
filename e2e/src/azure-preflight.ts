import { spawn } from 'node:child_process';

/** What a command answered: its exit code and output, or that it is not on PATH. */
export type CommandAnswer = { readonly found: false } | { readonly found: true; readonly code: number; readonly stdout: string; readonly stderr: string };

export function runCommand(command: string, args: readonly string[], environment: NodeJS.ProcessEnv): Promise<CommandAnswer> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? { found: false } : { found: true, code: 1, stdout, stderr: error.message }),
    );
    child.once('close', (code) => resolve({ found: true, code: code ?? 1, stdout, stderr }));
  });
}

const firstLine = (text: string): string => text.trim().split('\n')[0] ?? '';

/**
 * Before E2E_MODE=azure creates anything: az is installed and logged in with access to the subscription, and the
 * kubectl and helm the scripts call are there. Every problem at once, each saying what to do; none = ready.
 */
export async function azurePreflight(subscriptionId: string, helm: string, environment: NodeJS.ProcessEnv): Promise<string[]> {
  const problems: string[] = [];
  const account = await runCommand('az', ['account', 'show', '--subscription', subscriptionId, '--query', 'id', '--output', 'tsv'], environment);
  if (!account.found) {
    problems.push('az (the Azure CLI) is not on PATH: install it (https://learn.microsoft.com/cli/azure/install-azure-cli), then az login');
  } else if (account.code !== 0) {
    problems.push(
      /az login/i.test(account.stderr)
        ? `az is not logged in: run az login, with an account that can use subscription ${subscriptionId} (az said: ${firstLine(account.stderr)})`
        : `az cannot use subscription ${subscriptionId} (AZURE_SUBSCRIPTION_ID): ${firstLine(account.stderr) || `exit code ${account.code}`}`,
    );
  } else if (account.stdout.trim().toLowerCase() !== subscriptionId.toLowerCase()) {
    problems.push(`az answered subscription "${account.stdout.trim()}" when asked for ${subscriptionId} (AZURE_SUBSCRIPTION_ID)`);
  }
  if (!(await runCommand('kubectl', ['version', '--client'], environment)).found) problems.push('kubectl is not on PATH: az aks install-cli installs it');
  const helmVersion = await runCommand(helm, ['version', '--short'], environment);
  if (!helmVersion.found || helmVersion.code !== 0 || !helmVersion.stdout.startsWith('v4.')) {
    problems.push(
      `helm 4 is needed (the charts' --take-ownership --force-conflicts): ${helm} ${helmVersion.found ? `answered "${firstLine(helmVersion.stdout + helmVersion.stderr)}"` : 'is not there'}; set HELM=<path> (pnpm nx test charts-test builds one into .cache/helm/)`,
    );
  }
  return problems;
}
