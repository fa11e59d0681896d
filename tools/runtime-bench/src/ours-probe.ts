/**
 * Our side of the side-by-side (../go/cmd/runtime-bench/main.go is controller-runtime's): an informer of ConfigMaps
 * feeding a controller with a no-op reconciler (one worker), metrics (prom-client, on a registry of its own) recorded
 * as always, no logging (the silent logger; controller-runtime's probe discards its logs too), and the cache frozen or
 * not as the agents' main.ts decide it (freezesCachedObjects: not frozen with NODE_ENV=production, as the harness runs
 * it and the agents' images set it). Run bundled, as the agents run, with --expose-gc:
 *   node --expose-gc ours-probe.mjs --kubeconfig <file> [--namespace bench] [--objects 10000] [--updates 3000] [--writers 16,1]
 * After the first pass of reconciles it times a second pass (every cached key enqueued at once, to the last of those
 * reconciles done), then for each burst prints `BENCH {"event":"ready","writers":n}` (the caller then writes the
 * timed updates, each stamped with its send time) and finally `BENCH {"event":"report",...}`.
 */
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { freezesCachedObjects } from '@fleet-gateway/agent-flags';
import { deferred } from '@fleet-gateway/controller/test-support';
import { Controller, ControllerMetrics, done, Informer, KubeClient, requestFor, type KubeObject, type ResourceType } from '@fleet-gateway/controller';
import { emitBenchLine, sentAtAnnotation, wallClockMicros, type BurstReport, type ProbeReport } from './probe-protocol.js';

const configMaps: ResourceType = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };
const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    namespace: { type: 'string', default: 'bench' },
    objects: { type: 'string', default: '10000' },
    updates: { type: 'string', default: '3000' },
    writers: { type: 'string', default: '16,1' },
  },
});
const objects = Number(values.objects);
const updates = Number(values.updates);
const mib = (bytes: number) => bytes / 1024 / 1024;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const liveHeap = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('ours-probe needs --expose-gc to measure live heap');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const baselineRssMiB = mib(process.memoryUsage.rss());
const heapBefore = liveHeap();
const started = performance.now();
const cpuStarted = cpuMs();
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(values.kubeconfig!);
const client = new KubeClient(kubeConfig);
const metrics = new ControllerMetrics(new Registry());
const informer = new Informer<KubeObject>({
  client,
  resource: configMaps,
  namespace: values.namespace!,
  metrics,
  freezeObjects: freezesCachedObjects(process.env),
});

/** Reconciles so far, and the count the current pass waits for. */
let reconciles = 0;
let pass = { target: objects, reached: deferred() };
const expectReconciles = (target: number) => (pass = { target, reached: deferred() }).reached.promise;
const controller = new Controller({
  name: 'configmap',
  kind: 'ConfigMap',
  metrics,
  reconcile: async () => {
    if (++reconciles === pass.target) pass.reached.resolve();
    return done();
  },
});
controller.watch(informer);

/** The stamped updates of the current burst. */
let burst = { latencies: [] as number[], complete: deferred() };
informer.subscribe((event) => {
  const sent = event.type === 'updated' ? event.object.metadata.annotations?.[sentAtAnnotation] : undefined;
  if (sent === undefined || burst.latencies.length === updates) return;
  burst.latencies.push((wallClockMicros() - Number(sent)) / 1000);
  if (burst.latencies.length === updates) burst.complete.resolve();
});

const firstPass = pass.reached.promise;
informer.start();
await informer.waitForSync();
const syncSeconds = (performance.now() - started) / 1000;
const syncCpuMs = cpuMs() - cpuStarted;
const cacheHeapMiB = mib(liveHeap() - heapBefore);
controller.start();
await firstPass;

// The timed pass: every cached object's key enqueued at once, to the last of those reconciles done.
const requests = informer.store.list().map(requestFor);
const timedPass = expectReconciles(objects + requests.length);
const enqueued = performance.now();
for (const request of requests) controller.enqueue(request);
await timedPass;
const reconcilesPerSecond = requests.length / ((performance.now() - enqueued) / 1000);

// Each burst: the caller writes the stamped updates once it reads `ready`; the CPU from there to the last update
// observed is the cost of handling those events (decode, cache, handlers, enqueue, reconcile).
const bursts: BurstReport[] = [];
for (const writers of values.writers!.split(',').map(Number)) {
  burst = { latencies: [], complete: deferred() };
  const cpuReady = cpuMs();
  emitBenchLine({ event: 'ready', writers });
  await burst.complete.promise;
  bursts.push({ writers, watchLatencyMs: burst.latencies.sort((a, b) => a - b), watchCpuMs: cpuMs() - cpuReady });
}
const report: ProbeReport = {
  event: 'report',
  objects: informer.store.size,
  baselineRssMiB,
  syncSeconds,
  syncCpuMs,
  cacheHeapMiB,
  reconcilesPerSecond,
  bursts,
  threads: 1,
};
emitBenchLine(report);
await controller.stop(1000);
await informer.stop();
process.exit(0);
