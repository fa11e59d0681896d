import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { KubeClient } from '@fleet-gateway/controller';
import { burstWriters, parseBenchLine, sentAtAnnotation, wallClockMicros, type ProbeReport } from './probe-protocol.js';

/** What both probes are given (and the writers of each burst, `burstWriters`); the Go one takes the same flags with a single dash. */
export interface ProbeTarget {
  readonly kubeconfigPath: string;
  readonly namespace: string;
  readonly objects: number;
  readonly updates: number;
}

export function probeArgs(target: ProbeTarget, dash: '-' | '--'): string[] {
  const { kubeconfigPath, namespace, objects, updates } = target;
  return Object.entries({ kubeconfig: kubeconfigPath, namespace, objects, updates, writers: burstWriters.join(',') }).flatMap(([flag, value]) => [
    `${dash}${flag}`,
    String(value),
  ]);
}

/** ~1.5 KiB of ConfigMap as stored (name, labels, data, managedFields). */
const payload = (i: number) => `${i}:`.padEnd(1100, 'abcdefghijklmnopqrstuvwxyz0123456789');

async function inParallel(count: number, writers: number, write: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) await write(next++);
    }),
  );
}

/** The namespace and its `objects` ConfigMaps cm-0 … cm-<objects-1>, written by 32 writers. */
export async function createBenchObjects(client: KubeClient, target: ProbeTarget): Promise<void> {
  await client.create('/api/v1/namespaces', { metadata: { name: target.namespace } });
  await inParallel(target.objects, 32, (i) =>
    client.create(`/api/v1/namespaces/${target.namespace}/configmaps`, {
      metadata: { name: `cm-${i}`, labels: { app: `app-${i % 10}` } },
      data: { payload: payload(i) },
    }),
  );
}

/**
 * Starts a probe, and each time it is ready writes `updates` timed updates from as many writers as it asks for (each
 * stamped with its send time, spread over the objects; `round` and the burst vary which), and returns its report.
 */
export async function runProbe(command: string, args: string[], client: KubeClient, target: ProbeTarget, round: number): Promise<ProbeReport> {
  // NODE_ENV=production as the agents' images set it (our probe then does not freeze cached objects, as the agents do
  // not in production: freezesCachedObjects; Go ignores it).
  const child = spawn(command, args, { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${command} exited with ${code} before reporting`))));
  const lines = createInterface({ input: child.stdout! });
  const report = (async () => {
    let bursts = 0;
    for await (const text of lines) {
      const line = parseBenchLine(text);
      if (line?.event === 'ready') {
        const offset = round * burstWriters.length + bursts++;
        void inParallel(target.updates, line.writers, (i) =>
          client.patch(
            `/api/v1/namespaces/${target.namespace}/configmaps/cm-${(i * 7919 + offset) % target.objects}`,
            { metadata: { annotations: { [sentAtAnnotation]: String(wallClockMicros()) } } },
            'merge',
          ),
        );
      }
      if (line?.event === 'report') return line;
    }
    throw new Error(`${command} closed its output before reporting`);
  })();
  try {
    const result = await Promise.race([report, exited]);
    // It exits by itself once it reported (writing a --cpu-prof profile, when asked); a hung one is killed.
    await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(resolve, 5000))]);
    return result;
  } finally {
    child.kill('SIGKILL');
  }
}
