import { percentile } from '@fleet-gateway/controller/test-support';
import { burstWriters, type ProbeReport } from './probe-protocol.js';

export type Runtime = 'ours' | 'controller-runtime';

interface Figure {
  readonly name: string;
  readonly unit: string;
  readonly of: (report: ProbeReport) => number;
  readonly digits: number;
}

const burstFigures = (index: number, writers: number): Figure[] => [
  { name: `watch latency p99, ${writers} writer(s)`, unit: 'ms', of: (r) => percentile(r.bursts[index]!.watchLatencyMs, 99), digits: 1 },
  {
    name: `CPU per 1,000 watch events, ${writers} writer(s)`,
    unit: 'ms',
    of: (r) => (r.bursts[index]!.watchCpuMs * 1000) / r.bursts[index]!.watchLatencyMs.length,
    digits: 0,
  },
];

const figures: readonly Figure[] = [
  { name: 'start -> cache synced', unit: 's', of: (r) => r.syncSeconds, digits: 3 },
  { name: 'client CPU during sync', unit: 'ms', of: (r) => r.syncCpuMs, digits: 0 },
  { name: 'no-op reconciles/s, 1 worker, all keys enqueued -> all done', unit: '/s', of: (r) => r.reconcilesPerSecond, digits: 0 },
  { name: 'baseline RSS before the informer', unit: 'MiB', of: (r) => r.baselineRssMiB, digits: 1 },
  { name: 'live heap for the cache', unit: 'MiB', of: (r) => r.cacheHeapMiB, digits: 1 },
  ...burstWriters.flatMap((writers, index) => burstFigures(index, writers)),
];

export interface FigureRow {
  readonly figure: string;
  readonly ours: readonly number[];
  readonly controllerRuntime: readonly number[];
  readonly digits: number;
  readonly unit: string;
}

export function figureRows(runs: Readonly<Record<Runtime, readonly ProbeReport[]>>): FigureRow[] {
  return figures.map((f) => ({
    figure: f.name,
    unit: f.unit,
    digits: f.digits,
    ours: runs.ours.map(f.of),
    controllerRuntime: runs['controller-runtime'].map(f.of),
  }));
}

const spread = (values: readonly number[], digits: number) => [0, 50, 100].map((p) => percentile(values, p).toFixed(digits)).join(' / ');

/** A Markdown table: min / median / max of each side and the ratio of the medians. */
export function renderTable(rows: readonly FigureRow[]): string {
  const lines = ['| figure | ours min / median / max | controller-runtime min / median / max | ours / c-r (medians) |', '|---|---|---|---|'];
  for (const row of rows) {
    const ratio = percentile(row.ours, 50) / percentile(row.controllerRuntime, 50);
    lines.push(`| ${row.figure} (${row.unit}) | ${spread(row.ours, row.digits)} | ${spread(row.controllerRuntime, row.digits)} | ${ratio.toFixed(2)} |`);
  }
  return lines.join('\n');
}
