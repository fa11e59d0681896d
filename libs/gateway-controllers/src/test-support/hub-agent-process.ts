import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { managedIdentityEnvironment, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import { AgentProcess } from '@fleet-gateway/controller/test-support';

/** The bundle `pnpm nx bundle hub-gateway` writes. */
export const AGENT_BUNDLE = fileURLToPath(new URL('../../../../dist/apps/hub-gateway/main.mjs', import.meta.url));

export interface HubAgentProcessOptions {
  /** The API server the agent works against. */
  readonly kubeconfigPath: string;
  /** Default: AGENT_BUNDLE. */
  readonly bundle?: string;
  /** node's flags before the bundle; default the agent's AGENT_NODE_FLAGS. */
  readonly nodeFlags?: readonly string[];
  /** Run for the leader Lease (in `fleet-system`, which must exist); default off. */
  readonly leaderElect?: boolean;
  /** Added to PATH and KUBECONFIG, which are all the rest of its environment. */
  readonly environment?: NodeJS.ProcessEnv;
  /** `--enable-afd` and the flags it needs (see `emulatorAfdFlags`); default --enable-afd=false. */
  readonly afdFlags?: readonly string[];
  /** Further flags, after the others. */
  readonly flags?: readonly string[];
}

/** The flags that point the agent's Front Door side at the emulator (its environment: `emulatorAgentEnvironment`). */
export function emulatorAfdFlags(
  emulator: { readonly armEndpoint: string },
  scope: { readonly subscriptionId: string; readonly resourceGroup: string },
  hubName = 'hub',
): string[] {
  return [
    '--enable-afd',
    '--azure-subscription-id',
    scope.subscriptionId,
    '--afd-resource-group',
    scope.resourceGroup,
    '--hub-name',
    hubName,
    '--arm-endpoint',
    emulator.armEndpoint,
  ];
}

/** A pod's environment for the emulator: its managed-identity endpoint, and its CA (written into `dir`) trusted. */
export async function emulatorAgentEnvironment(emulator: RunningEmulator, dir: string): Promise<NodeJS.ProcessEnv> {
  const caFile = path.join(dir, 'emulator-ca.pem');
  await writeFile(caFile, emulator.caCertificate);
  return { NODE_EXTRA_CA_CERTS: caFile, ...managedIdentityEnvironment(emulator) };
}

export interface HubAgentProcess {
  readonly process: AgentProcess;
  readonly readyzUrl: string;
  readonly healthzUrl: string;
  readonly metricsUrl: string;
  /** This replica's identity in the leader Lease. */
  readonly identity: string;
}

/**
 * Starts the hub agent's bundle under plain node as its container does (after its node flags), with
 * --enable-afd=false unless given `afdFlags`, against the API server of `kubeconfigPath`, and waits for its start line, which names the
 * health and metrics addresses it bound.
 */
export async function startAgentProcess(options: HubAgentProcessOptions, timeoutMs = 600_000): Promise<HubAgentProcess> {
  const bundle = options.bundle ?? AGENT_BUNDLE;
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist; build it with: pnpm nx bundle hub-gateway`);
  const flags = [
    ...(options.afdFlags ?? ['--enable-afd=false']),
    `--leader-elect=${options.leaderElect ?? false}`,
    '--health-probe-bind-address=127.0.0.1:0',
    '--metrics-bind-address=127.0.0.1:0',
    // On loopback the tests and the memory benchmark read /metrics in plain HTTP, without a token.
    '--metrics-secure=false',
    ...(options.flags ?? []),
  ];
  const environment = { PATH: process.env.PATH, KUBECONFIG: options.kubeconfigPath, ...options.environment };
  const agent = new AgentProcess(bundle, flags, environment, options.nodeFlags ?? AGENT_NODE_FLAGS['hub-gateway']);
  const started = await agent.line((l) => l.message === 'hub-gateway started', timeoutMs);
  return {
    process: agent,
    readyzUrl: `${String(started.health)}/readyz`,
    healthzUrl: `${String(started.health)}/healthz`,
    metricsUrl: `${String(started.metrics)}/metrics`,
    identity: String(started.identity),
  };
}

/** The agent's /readyz answer; a refused connection is not ready, with its error as the body. */
export async function readyz(url: string): Promise<{ ok: boolean; body: string }> {
  try {
    const response = await fetch(url);
    return { ok: response.ok, body: await response.text() };
  } catch (error) {
    return { ok: false, body: (error as Error).message };
  }
}

/**
 * Starts the agent (startAgentProcess) and waits until /readyz answers 200; returns it and the seconds that took.
 * Not ready within `timeoutMs` of the start, or exited, it is stopped and the last answer given in the error.
 */
export async function readyAgentProcess(options: HubAgentProcessOptions, timeoutMs: number): Promise<{ agent: HubAgentProcess; readyS: number }> {
  const started = performance.now();
  const agent = await startAgentProcess(options, timeoutMs);
  let exited = false;
  void agent.process.exited.then(() => (exited = true));
  let ready = await readyz(agent.readyzUrl);
  while (!ready.ok) {
    if (exited || performance.now() - started > timeoutMs) {
      await agent.process.stop();
      throw new Error(`the agent ${exited ? 'exited' : `was not ready within ${timeoutMs / 1000} s`}: ${ready.body}`);
    }
    await sleep(200);
    ready = await readyz(agent.readyzUrl);
  }
  return { agent, readyS: (performance.now() - started) / 1000 };
}
