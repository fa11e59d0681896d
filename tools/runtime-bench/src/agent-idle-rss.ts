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
import { freePorts, startControlPlane } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { percentile, residentMiB } from '@fleet-gateway/controller/test-support';
import { bundleAgent } from '../../scripts/bundle-agent.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, 'idle-seconds': { type: 'string', default: '20' } } });
const rounds = Number(values.rounds);
const idleMs = Number(values['idle-seconds']) * 1000;

/** Starts `node <flags> <script...>`, waits until `ready()` holds, idles, and returns its RSS then. */
async function idleRss(nodeFlags: string[], args: string[], env: NodeJS.ProcessEnv, ready: () => Promise<boolean>): Promise<number> {
  const child = spawn(process.execPath, [...nodeFlags, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const deadline = Date.now() + 60_000;
    while (!(await ready())) {
      if (child.exitCode !== null) throw new Error(`${args[0]} exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`${args[0]} was not ready within 60 s`);
      await sleep(200);
    }
    await sleep(idleMs);
    return residentMiB(child.pid!).rss;
  } finally {
    child.kill('SIGKILL');
  }
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
      const [health, metrics] = (await freePorts(2)) as [number, number];
      const args = [bundle, '--hub-name', 'hub', '--health-probe-bind-address', `127.0.0.1:${health}`, '--metrics-bind-address', `127.0.0.1:${metrics}`];
      const readyz = () => fetch(`http://127.0.0.1:${health}/readyz`).then((r) => r.ok, () => false);
      const env = { PATH: process.env.PATH ?? '', KUBECONFIG: hub.kubeconfigPath, NODE_ENV: 'production' };
      results[name]!.push(await idleRss(variants[name]!, args, env, readyz));
    }
    results['empty node process']!.push(await idleRss([], ['-e', 'setInterval(() => {}, 1000)'], {}, async () => true));
  }
  console.log(`bundled hub agent, idle ${idleMs / 1000} s after /readyz, ${rounds} alternating rounds, node ${process.version}`);
  console.log('| process | RSS min / median / max (MiB) |\n|---|---|');
  for (const [name, samples] of Object.entries(results)) {
    console.log(`| ${name} | ${[0, 50, 100].map((p) => percentile(samples, p).toFixed(1)).join(' / ')} |`);
  }
} finally {
  await plane.stop();
}
