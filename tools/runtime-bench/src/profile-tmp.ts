import { startControlPlane } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { bundleOurProbe } from './controller-runtime-binary.js';
import { createBenchObjects, probeArgs, runProbe, type ProbeTarget } from './probe-runner.js';

const ourProbe = await bundleOurProbe();
const plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
try {
  const hub = plane.cluster('hub');
  const client = new KubeClient(hub.kubeConfig());
  const target: ProbeTarget = { kubeconfigPath: hub.kubeconfigPath, namespace: 'bench', objects: 2000, updates: 6000 };
  await createBenchObjects(client, target);
  for (let round = 0; round < Number(process.argv[2] ?? 1); round++) {
    const r = await runProbe(process.execPath, ['--expose-gc', '--cpu-prof', '--cpu-prof-dir=/tmp/rt-prof', ...(process.argv[3] ? [process.argv[3]] : []), ourProbe, ...probeArgs(target, '--')], client, target, round);
    console.log(JSON.stringify(r.bursts.map((b) => ({ w: b.writers, cpuPer1000: (b.watchCpuMs * 1000) / b.watchLatencyMs.length }))));
  }
} finally {
  await plane.stop();
}
