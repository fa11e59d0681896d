/**
 * Resident memory of an informer cache holding 10,000 small objects (ConfigMaps with one label and one short data
 * entry, as the API server returns them: with managedFields), filled from a real API server (streamed; pages of 500
 * where the server cannot stream).
 * Run: pnpm tsx libs/controller/src/bench/informer-memory-bench.ts
 * The informer runs in a fresh child process (informer-memory-probe.ts, with --expose-gc) so that only the cache
 * moves its memory figures.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startHubPlane } from '../test-support/hub-plane.js';
import type { ProbeReport, ProbeRequest } from './informer-memory-probe.js';

const objects = 10_000;
const writers = 32;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function probe(request: ProbeRequest): Promise<ProbeReport> {
  const script = fileURLToPath(new URL('./informer-memory-probe.ts', import.meta.url));
  const child = fork(script, { execArgv: ['--expose-gc', '--import', 'tsx'] });
  child.send(request);
  return new Promise((resolve, reject) => {
    child.once('message', (report: ProbeReport) => resolve(report));
    child.once('exit', (code) => reject(new Error(`memory probe exited with ${code} before reporting`)));
  });
}

const { plane, hub, client } = await startHubPlane({ namespaces: ['bench'] });
try {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < objects) {
        const i = next++;
        await client.create('/api/v1/namespaces/bench/configmaps', {
          metadata: { name: `cm-${i}`, labels: { app: `app-${i % 10}` } },
          data: { key: `value-${i}` },
        });
      }
    }),
  );
  const report = await probe({ kubeconfigPath: hub.kubeconfigPath, namespace: 'bench' });
  const rss = report.after.rss - report.before.rss;
  const heap = report.after.heapUsed - report.before.heapUsed;
  console.log(`informer cache of ${report.objects} ConfigMaps (node ${process.version})`);
  if (!report.gcExposed) console.log('  warning: the probe ran without --expose-gc; figures include uncollected garbage');
  console.log(`  initial list (streamed) + sync: ${report.listSeconds.toFixed(2)} s`);
  console.log(`  resident memory: ${mib(report.before.rss)} -> ${mib(report.after.rss)} (+${mib(rss)}, ${Math.round(rss / report.objects)} B/object)`);
  console.log(
    `  heap used:       ${mib(report.before.heapUsed)} -> ${mib(report.after.heapUsed)} (+${mib(heap)}, ${Math.round(heap / report.objects)} B/object)`,
  );
} finally {
  await plane.stop();
}
