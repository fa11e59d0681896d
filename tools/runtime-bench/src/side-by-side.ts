/**
 * Our controller runtime and controller-runtime v0.24.1 (client-go v0.36.3), side by side against one local
 * kube-apiserver v1.36.3 holding the same ConfigMaps; alternating runs, min/median/max per figure and the ratio
 * ours / controller-runtime of the medians.
 *   pnpm nx bench controller            (or: pnpm tsx tools/runtime-bench/src/side-by-side.ts [--rounds 3] [--objects 10000])
 * Not part of `make test`: it builds controller-runtime (cached in .cache/runtime-bench/).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startControlPlane } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { bundleOurProbe, ensureControllerRuntimeProbe } from './controller-runtime-binary.js';
import type { ProbeReport } from './probe-protocol.js';
import { createBenchObjects, probeArgs, runProbe, type ProbeTarget } from './probe-runner.js';
import { figureRows, renderTable, type Runtime } from './figures.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    objects: { type: 'string', default: '10000' },
    updates: { type: 'string', default: '3000' },
  },
});
const rounds = Number(values.rounds);
const objects = Number(values.objects);
const log = (line: string) => process.stderr.write(`${line}\n`);

const [controllerRuntimeProbe, ourProbe] = await Promise.all([ensureControllerRuntimeProbe(log), bundleOurProbe()]);
const plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
try {
  const hub = plane.cluster('hub');
  const client = new KubeClient(hub.kubeConfig());
  const target: ProbeTarget = { kubeconfigPath: hub.kubeconfigPath, namespace: 'bench', objects, updates: Number(values.updates) };
  log(`creating ${objects} ConfigMaps`);
  await createBenchObjects(client, target);
  const runs: Record<Runtime, ProbeReport[]> = { ours: [], 'controller-runtime': [] };
  // The machine is shared: the load average before and after the rounds goes with the figures.
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const loadBefore = load();
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first, so a drift in the machine's load does not favour one side.
    const order: Runtime[] = round % 2 === 0 ? ['ours', 'controller-runtime'] : ['controller-runtime', 'ours'];
    for (const runtime of order) {
      const report =
        runtime === 'ours'
          ? await runProbe(process.execPath, ['--expose-gc', ourProbe, ...probeArgs(target, '--')], client, target, round)
          : await runProbe(controllerRuntimeProbe, probeArgs(target, '-'), client, target, round);
      if (report.objects !== objects) throw new Error(`${runtime} cached ${report.objects} objects; expected ${objects}`);
      runs[runtime].push(report);
      log(`round ${round + 1} ${runtime}: synced in ${report.syncSeconds.toFixed(3)} s`);
    }
  }
  const threads = runs['controller-runtime'][0]?.threads;
  console.log(`${objects} ConfigMaps, ${rounds} alternating rounds, node ${process.version}, kube-apiserver v1.36.3, controller-runtime GOMAXPROCS ${threads}`);
  console.log(`load average (1/5/15 min) before the rounds ${loadBefore}, after ${load()}`);
  console.log(renderTable(figureRows(runs)));
} finally {
  await plane.stop();
}
