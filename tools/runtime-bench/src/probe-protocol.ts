/**
 * What both probes (ours-probe.ts and ../go/cmd/runtime-bench/main.go) print and read: `BENCH <json>` lines on
 * standard output, and the annotation each timed update carries with its send time.
 */
export const sentAtAnnotation = 'bench.fleet-gateway/sent-at-us';

/** Wall-clock microseconds, comparable across processes on one machine (Go's time.Now().UnixMicro()). */
export function wallClockMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

export interface ProbeReport {
  readonly event: 'report';
  readonly objects: number;
  readonly baselineRssMiB: number;
  readonly syncSeconds: number;
  readonly syncCpuMs: number;
  readonly cacheHeapMiB: number;
  readonly reconcilesPerSecond: number;
  /** Sorted ascending. */
  readonly watchLatencyMs: number[];
  readonly watchCpuMs: number;
}

export type ProbeLine = { readonly event: 'ready' } | ProbeReport;

export function emitBenchLine(line: ProbeLine): void {
  process.stdout.write(`BENCH ${JSON.stringify(line)}\n`);
}

export function parseBenchLine(line: string): ProbeLine | undefined {
  return line.startsWith('BENCH ') ? (JSON.parse(line.slice('BENCH '.length)) as ProbeLine) : undefined;
}
