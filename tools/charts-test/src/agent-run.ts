import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { managedIdentityEnvironment, start, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import type { AgentProcess } from '@fleet-gateway/controller/test-support';

/** Every refusal of the API server surfaces as an error or a 403 in some line (a retried reconcile, a failed watch). */
export const refusals = (run: AgentProcess) => run.lines.filter((l) => l.level === 'error' || /forbidden|\b403\b/i.test(JSON.stringify(l)));

/** The emulator an agent's process reaches as a pod with a managed identity would, and that pod's environment. */
export interface AgentEmulator {
  readonly emulator: RunningEmulator;
  /** The managed-identity endpoint, and the emulator's CA as NODE_EXTRA_CA_CERTS. */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Starts the Azure emulator with ARM taking only the tokens its managed-identity endpoint issued, and writes its CA
 * into `dir` for the agent to trust.
 */
export async function startAgentEmulator(dir: string): Promise<AgentEmulator> {
  const emulator = await start({ armAuthentication: 'issued-tokens', lroDelayMs: 0, throttling: false });
  const caFile = path.join(dir, 'emulator-ca.pem');
  await writeFile(caFile, emulator.caCertificate);
  return { emulator, environment: { NODE_EXTRA_CA_CERTS: caFile, ...managedIdentityEnvironment(emulator) } };
}
