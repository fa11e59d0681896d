import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { AgentProcess } from '@fleet-gateway/controller/test-support';

/** The bundle `pnpm nx bundle hub-gateway` writes. */
export const AGENT_BUNDLE = fileURLToPath(new URL('../../../../dist/apps/hub-gateway/main.mjs', import.meta.url));

export interface BenchAgent {
  readonly process: AgentProcess;
  readonly readyzUrl: string;
  readonly metricsUrl: string;
}

/**
 * Starts the hub agent's bundle under plain node as its container does (after `nodeFlags`: its AGENT_NODE_FLAGS unless
 * told otherwise), with --enable-afd=false and no leader election, against the API server of `kubeconfigPath`, and
 * waits for its start line, which names the health and metrics addresses it bound.
 */
export async function startAgentProcess(kubeconfigPath: string, bundle = AGENT_BUNDLE, nodeFlags: readonly string[] = AGENT_NODE_FLAGS['hub-gateway']): Promise<BenchAgent> {
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist; build it with: pnpm nx bundle hub-gateway`);
  const flags = ['--enable-afd=false', '--leader-elect=false', '--health-probe-bind-address=127.0.0.1:0', '--metrics-bind-address=127.0.0.1:0'];
  const agent = new AgentProcess(bundle, flags, { PATH: process.env.PATH, KUBECONFIG: kubeconfigPath }, nodeFlags);
  const started = await agent.line((l) => l.message === 'hub-gateway started', 600_000);
  return { process: agent, readyzUrl: `${String(started.health)}/readyz`, metricsUrl: `${String(started.metrics)}/metrics` };
}
