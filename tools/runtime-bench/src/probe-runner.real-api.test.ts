import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { bundleOurProbe } from './controller-runtime-binary.js';
import { burstWriters } from './probe-protocol.js';
import { createBenchObjects, probeArgs, runProbe, type ProbeTarget } from './probe-runner.js';

// The harness of the side-by-side on 100 objects, with our probe only: CI never builds controller-runtime.
let plane: ControlPlane;
let client: KubeClient;
let target: ProbeTarget;

beforeAll(async () => {
  plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
  const hub = plane.cluster('hub');
  client = new KubeClient(hub.kubeConfig());
  target = { kubeconfigPath: hub.kubeconfigPath, namespace: 'bench', objects: 100, updates: 20 };
  await createBenchObjects(client, target);
});

afterAll(async () => {
  await plane?.stop();
});

describe('side-by-side harness', () => {
  it('runs the bundled probe to a report: every object cached, every timed update of every burst seen', async () => {
    const probe = await bundleOurProbe();
    const report = await runProbe(process.execPath, ['--expose-gc', probe, ...probeArgs(target, '--')], client, target, 0);
    expect(report.objects).toBe(100);
    expect(report.bursts.map((burst) => burst.writers)).toEqual(burstWriters);
    for (const { watchLatencyMs, watchCpuMs } of report.bursts) {
      expect(watchLatencyMs).toHaveLength(20);
      expect(watchLatencyMs.every((ms) => ms > 0 && ms < 60_000)).toBe(true);
      expect(watchLatencyMs).toEqual([...watchLatencyMs].sort((a, b) => a - b));
      expect(watchCpuMs).toBeGreaterThan(0);
    }
    for (const figure of [report.syncSeconds, report.syncCpuMs, report.reconcilesPerSecond, report.baselineRssMiB]) {
      expect(figure).toBeGreaterThan(0);
    }
  });
});
