/**
 * Idle resident memory of the bundled hub agent (dist/apps/hub-gateway/main.mjs, as its image and the local system
 * run it) against a local kube-apiserver with the Gateway API and Fleet CRDs, with and without
 * `--max-semi-space-size=1`, alternating; plus an empty `node` process for the floor no bundle can go below.
 *   pnpm tsx tools/runtime-bench/src/agent-idle-rss.ts [--rounds 3] [--idle-seconds 20]
 * Front Door is off (no Azure here): the agent still loads its whole bundle, Azure SDK included, and runs its
 * informers, controllers, leader election (it leads) and probe servers.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startControlPlane } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { percentile, residentMiB } from '@fleet-gateway/controller/test-support';
import { readyAgentProcess } from '@fleet-gateway/gateway-controllers/test-support';
import { bundleAgent } from '@fleet-gateway/scripts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, 'idle-seconds': { type: 'string', default: '20' } } });
const rounds = Number(values.rounds);
const idleMs = Number(values['idle-seconds']) * 1000;

/** The process's RSS after idling. */
async function idleRss(pid: number): Promise<number> {
  await sleep(idleMs);
  return residentMiB(pid).rss;
}

const bundle = await bundleAgent('hub-gateway');
const plane = await startControlPlane({ clusters: ['hub'], controllerManager: false, crds: { hub: {} } });
try {
  const hub = plane.cluster('hub');
  // The namespace of its leader Lease (the chart creates it).
  await new KubeClient(hub.kubeConfig()).create('/api/v1/namespaces', { metadata: { name: 'fleet-system' } });
  const variants: Record<string, string[]> = { 'default flags': [], '--max-semi-space-size=1': ['--max-semi-space-size=1'] };
  const results: Record<string, number[]> = { 'empty node process': [] };
  for (const name of Object.keys(variants)) results[name] = [];
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(variants);
    for (const name of round % 2 === 0 ? names : names.reverse()) {
      const options = { kubeconfigPath: hub.kubeconfigPath, bundle, nodeFlags: variants[name]!, leaderElect: true, environment: { NODE_ENV: 'production' } };
      const { agent } = await readyAgentProcess(options, 60_000);
      try {
        results[name]!.push(await idleRss(agent.process.pid));
      } finally {
        agent.process.kill('SIGKILL');
      }
    }
    const empty = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { env: {}, stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      results['empty node process']!.push(await idleRss(empty.pid!));
    } finally {
      empty.kill('SIGKILL');
    }
  }
  console.log(`bundled hub agent, idle ${idleMs / 1000} s after /readyz, ${rounds} alternating rounds, node ${process.version}`);
  console.log('| process | RSS min / median / max (MiB) |\n|---|---|');
  for (const [name, samples] of Object.entries(results)) {
    console.log(`| ${name} | ${[0, 50, 100].map((p) => percentile(samples, p).toFixed(1)).join(' / ')} |`);
  }
} finally {
  await plane.stop();
}
