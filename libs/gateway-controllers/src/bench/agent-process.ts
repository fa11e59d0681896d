import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The bundle `pnpm nx bundle hub-gateway` writes. */
export const AGENT_BUNDLE = fileURLToPath(new URL('../../../../dist/apps/hub-gateway/main.mjs', import.meta.url));
const IN_PROCESS_AGENT = fileURLToPath(new URL('./in-process-agent.ts', import.meta.url));

/** `bundle`: the agent's bundle under plain node; `tsx`: in-process-agent.ts under tsx (until the bundle is on main). */
export type AgentMode = 'bundle' | 'tsx';

export interface AgentProcess {
  readonly pid: number;
  readonly mode: AgentMode;
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
 * Starts the hub agent with --enable-afd=false against the API server of `kubeconfigPath` (the bundle at `bundle`,
 * default AGENT_BUNDLE, in `bundle` mode); its log is discarded.
 */
export async function startAgentProcess(mode: AgentMode, kubeconfigPath: string, bundle = AGENT_BUNDLE): Promise<AgentProcess> {
  const health = await freePort();
  const metrics = await freePort();
  let child: ChildProcess;
  if (mode === 'bundle') {
    if (!existsSync(bundle)) throw new Error(`${bundle} does not exist; build it with: pnpm nx bundle hub-gateway`);
    const flags = ['--enable-afd=false', '--leader-elect=false', `--health-probe-bind-address=127.0.0.1:${health}`, `--metrics-bind-address=127.0.0.1:${metrics}`];
    child = spawn(process.execPath, [bundle, ...flags], { env: { ...process.env, KUBECONFIG: kubeconfigPath }, stdio: ['ignore', 'ignore', 'inherit'] });
  } else {
    child = spawn(process.execPath, ['--import', 'tsx', IN_PROCESS_AGENT, '--kubeconfig', kubeconfigPath, '--health-port', String(health)], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (child.pid === undefined) throw new Error(`the agent (${mode}) did not start`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid,
    mode,
    readyzUrl: `http://127.0.0.1:${health}/readyz`,
    // The in-process agent serves /metrics beside its probes, as the Manager on main does.
    metricsUrl: `http://127.0.0.1:${mode === 'bundle' ? metrics : health}/metrics`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
