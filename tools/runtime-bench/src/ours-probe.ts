/**
 * Our side of the side-by-side (../go/cmd/runtime-bench/main.go is controller-runtime's): an informer of ConfigMaps
 * feeding a controller with a no-op reconciler (one worker), logging (winston, info) and metrics (prom-client) on at
 * their defaults, and the cache frozen or not as the agents' main.ts decide it (freezesCachedObjects: not frozen with
 * NODE_ENV=production, as the harness runs it and the agents' images set it). Run bundled, as the agents run, with
 * --expose-gc:
 *   node --expose-gc ours-probe.mjs --kubeconfig <file> [--namespace bench] [--objects 10000] [--updates 1000]
 * Prints `BENCH {"event":"ready"}` once the first pass of reconciles is done (the caller then writes the timed
 * updates, each stamped with its send time), then `BENCH {"event":"report",...}`.
 */
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { freezesCachedObjects } from '@fleet-gateway/agent-flags';
import { Controller, ControllerMetrics, createLogger, done, Informer, KubeClient, type KubeObject, type ResourceType } from '@fleet-gateway/controller';
import { emitBenchLine, sentAtAnnotation, wallClockMicros, type ProbeReport } from './probe-protocol.js';

const configMaps: ResourceType = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };
const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    namespace: { type: 'string', default: 'bench' },
    objects: { type: 'string', default: '10000' },
    updates: { type: 'string', default: '1000' },
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
const logger = createLogger({ stream: process.stderr });
const informer = new Informer<KubeObject>({
  client,
  resource: configMaps,
  namespace: values.namespace!,
  metrics,
  logger,
  freezeObjects: freezesCachedObjects(process.env),
});

let reconciles = 0;
let firstReconcile = 0;
let firstPassDone: () => void;
const firstPass = new Promise<void>((resolve) => (firstPassDone = resolve));
let lastReconcile = 0;
const controller = new Controller({
  name: 'configmap',
  kind: 'ConfigMap',
  metrics,
  logger,
  reconcile: async () => {
    const now = performance.now();
    if (++reconciles === 1) firstReconcile = now;
    if (reconciles === objects) {
      lastReconcile = now;
      firstPassDone();
    }
    return done();
  },
});
controller.watch(informer);

const latencies: number[] = [];
let allUpdates: () => void;
const updatesSeen = new Promise<void>((resolve) => (allUpdates = resolve));
informer.subscribe((event) => {
  const sent = event.type === 'updated' ? event.object.metadata.annotations?.[sentAtAnnotation] : undefined;
  if (sent === undefined) return;
  latencies.push((wallClockMicros() - Number(sent)) / 1000);
  if (latencies.length === updates) allUpdates();
});

informer.start();
await informer.waitForSync();
const syncSeconds = (performance.now() - started) / 1000;
const syncCpuMs = cpuMs() - cpuStarted;
const cacheHeapMiB = mib(liveHeap() - heapBefore);
controller.start();
await firstPass;
const reconcilesPerSecond = (objects - 1) / ((lastReconcile - firstReconcile) / 1000);

const cpuReady = cpuMs();
emitBenchLine({ event: 'ready' });
await updatesSeen;
const watchCpuMs = cpuMs() - cpuReady;
const report: ProbeReport = {
  event: 'report',
  objects: informer.store.size,
  baselineRssMiB,
  syncSeconds,
  syncCpuMs,
  cacheHeapMiB,
  reconcilesPerSecond,
  watchLatencyMs: latencies.sort((a, b) => a - b),
  watchCpuMs,
};
emitBenchLine(report);
await controller.stop(1000);
await informer.stop();
process.exit(0);
