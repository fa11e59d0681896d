import { describe, expect, it } from 'vitest';
import { figureRows, renderTable } from './figures.js';
import type { ProbeReport } from './probe-protocol.js';

const report = (syncSeconds: number, latencies: number[], cpuMs: number): ProbeReport => ({
  event: 'report',
  objects: 10,
  baselineRssMiB: 40,
  syncSeconds,
  syncCpuMs: 100,
  cacheHeapMiB: 2,
  reconcilesPerSecond: 1000,
  bursts: [
    { writers: 16, watchLatencyMs: latencies, watchCpuMs: cpuMs },
    { writers: 1, watchLatencyMs: [...latencies, 1, 1], watchCpuMs: cpuMs },
  ],
  threads: 1,
});

describe('figures', () => {
  it('prints min / median / max of each side and the ratio of the medians', () => {
    const table = renderTable(
      figureRows({
        ours: [report(0.3, [1, 2], 1), report(0.1, [1, 4], 2), report(0.2, [1, 3], 3)],
        'controller-runtime': [report(0.4, [2, 8], 4), report(0.5, [2, 8], 4), report(0.4, [2, 8], 4)],
      }),
    );
    expect(table).toContain('| start -> cache synced (s) | 0.100 / 0.200 / 0.300 | 0.400 / 0.400 / 0.500 | 0.50 |');
    expect(table).toContain('| watch latency p99, 16 writer(s) (ms) | 2.0 / 3.0 / 4.0 | 8.0 / 8.0 / 8.0 | 0.38 |');
    // CPU over the events seen: 2 events per burst of 16 writers, 4 per burst of 1.
    expect(table).toContain('| CPU per 1,000 watch events, 16 writer(s) (ms) | 500 / 1000 / 1500 | 2000 / 2000 / 2000 | 0.50 |');
    expect(table).toContain('| CPU per 1,000 watch events, 1 writer(s) (ms) | 250 / 500 / 750 | 1000 / 1000 / 1000 | 0.50 |');
    expect(table.split('\n')).toHaveLength(2 + 9);
  });
});
