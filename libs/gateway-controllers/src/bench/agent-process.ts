import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The bundle `pnpm nx bundle hub-gateway` writes. */
export const AGENT_BUNDLE = fileURLToPath(new URL('../../../../dist/apps/hub-gateway/main.mjs', import.meta.url));

export interface AgentProcess {
  readonly pid: number;
  readonly readyzUrl: string;
  readonly metricsUrl: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the hub agent's bundle under plain node, as its container does, with --enable-afd=false and no leader
 * election, against the API server of `kubeconfigPath`; its log is discarded.
 */
export async function startAgentProcess(kubeconfigPath: string, bundle = AGENT_BUNDLE): Promise<AgentProcess> {
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist; build it with: pnpm nx bundle hub-gateway`);
  const health = await freePort();
  const metrics = await freePort();
  const flags = ['--enable-afd=false', '--leader-elect=false', `--health-probe-bind-address=127.0.0.1:${health}`, `--metrics-bind-address=127.0.0.1:${metrics}`];
  const child = spawn(process.execPath, [bundle, ...flags], { env: { ...process.env, KUBECONFIG: kubeconfigPath }, stdio: ['ignore', 'ignore', 'inherit'] });
  if (child.pid === undefined) throw new Error(`the agent ${bundle} did not start`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid,
    readyzUrl: `http://127.0.0.1:${health}/readyz`,
    metricsUrl: `http://127.0.0.1:${metrics}/metrics`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
