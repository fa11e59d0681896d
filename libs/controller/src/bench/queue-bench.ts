/**
 * Throughput and queue latency of the work queue + controller with a no-op reconciler, for 10,000 keys.
 * Run: pnpm tsx libs/controller/src/bench/queue-bench.ts
 * - burst: all keys enqueued at once (a resync or relist of 10,000 objects); latency includes the wait behind
 *   every earlier key, so p99 is close to the total drain time.
 * - paced: keys arrive steadily at a fixed rate; latency is the queue's own overhead per key.
 */
import { Controller } from '../queue/controller.js';
import { done } from '../queue/reconcile-outcome.js';
import { percentile } from './percentile.js';
import { deferred } from '../util/deferred.js';

const keys = 10_000;

async function run(name: string, concurrency: number, arrivalsPerSecond: number | undefined): Promise<void> {
  const enqueuedAt = new Map<string, number>();
  const latenciesMs: number[] = [];
  const all = deferred();
  const controller = new Controller({
    name,
    kind: 'Bench',
    concurrency,
    reconcile: async ({ name: key }) => {
      latenciesMs.push(performance.now() - enqueuedAt.get(key)!);
      if (latenciesMs.length === keys) all.resolve();
      return done();
    },
  });
  controller.start();
  const started = performance.now();
  if (arrivalsPerSecond === undefined) {
    for (let i = 0; i < keys; i++) {
      enqueuedAt.set(`k${i}`, performance.now());
      controller.enqueue({ name: `k${i}` });
    }
  } else {
    const perTick = Math.max(1, Math.round(arrivalsPerSecond / 1000));
    for (let i = 0; i < keys;) {
      for (let j = 0; j < perTick && i < keys; j++, i++) {
        enqueuedAt.set(`k${i}`, performance.now());
        controller.enqueue({ name: `k${i}` });
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  await all.promise;
  const seconds = (performance.now() - started) / 1000;
  await controller.stop(1000);
  const rate = arrivalsPerSecond === undefined ? 'all at once' : `${arrivalsPerSecond}/s offered`;
  console.log(
    `${name.padEnd(8)} concurrency=${concurrency} arrivals=${rate.padEnd(14)} ` +
      `reconciles/s=${Math.round(keys / seconds)
        .toString()
        .padStart(7)}  ` +
      `queue latency p50=${percentile(latenciesMs, 50).toFixed(3)} ms p99=${percentile(latenciesMs, 99).toFixed(3)} ms`,
  );
}

console.log(`work queue + controller, ${keys} keys, no-op reconciler (node ${process.version})`);
await run('burst', 1, undefined);
await run('burst', 4, undefined);
await run('paced', 1, 5000);
await run('paced', 4, 5000);
