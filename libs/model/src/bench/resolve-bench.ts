/**
 * Prints the median time to resolve, normalize and hash a Gateway of 160 origins, 160 routes and 40 clusters
 * (target: under 5 ms). Run: pnpm tsx libs/model/src/bench/resolve-bench.ts
 */
import { performance } from 'node:perf_hooks';
import { modelHash } from '../model/content-hash.js';
import { resolveGateway } from '../resolve/resolve-gateway.js';
import { benchmarkInputs, TARGET_SHAPE } from './bench-inputs.js';

const WARMUP = 30;
const RUNS = 200;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

const inputs = benchmarkInputs();
let hash = '';
const once = () => {
  const { model } = resolveGateway(inputs); // resolveGateway normalizes before it returns
  hash = model ? modelHash(model) : '';
};
for (let i = 0; i < WARMUP; i++) once();
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  once();
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const { model } = resolveGateway(inputs);
const origins = model?.backends.reduce((n, b) => n + b.origins.length, 0) ?? 0;
console.log(
  `resolve+normalize+hash, ${TARGET_SHAPE.clusters} clusters, ${origins} origins, ${model?.routes.length ?? 0} routes, ${RUNS} runs: ` +
    `median ${percentile(times, 0.5).toFixed(2)} ms, p90 ${percentile(times, 0.9).toFixed(2)} ms, min ${(times[0] ?? 0).toFixed(2)} ms ` +
    `(target < 5 ms; hash ${hash.slice(0, 12)})`,
);
