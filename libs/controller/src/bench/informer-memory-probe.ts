/**
 * The measuring half of informer-memory-bench.ts, in a fresh process so that nothing but the informer moves its
 * memory (the parent's 10,000 create requests would otherwise dominate the figures). Configured over IPC.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Informer } from '../informer/informer.js';
import { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { configMaps } from '../test-support/real-api.js';

export interface ProbeRequest {
  readonly kubeconfigPath: string;
  readonly namespace: string;
}

export interface ProbeReport {
  readonly objects: number;
  readonly listSeconds: number;
  readonly gcExposed: boolean;
  readonly before: NodeJS.MemoryUsage;
  readonly after: NodeJS.MemoryUsage;
}

function settledMemory(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage();
}

process.once('message', async (request: ProbeRequest) => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(request.kubeconfigPath);
  const informer = new Informer<KubeObject>({
    client: new KubeClient(kubeConfig),
    resource: configMaps,
    namespace: request.namespace,
  });
  const before = settledMemory();
  const started = performance.now();
  informer.start();
  await informer.waitForSync();
  const listSeconds = (performance.now() - started) / 1000;
  const after = settledMemory();
  const report: ProbeReport = {
    objects: informer.store.size,
    listSeconds,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    before,
    after,
  };
  await informer.stop();
  process.send?.(report, () => process.exit(0));
});
