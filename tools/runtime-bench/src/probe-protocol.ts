/**
 * What both probes (ours-probe.ts and ../go/cmd/runtime-bench/main.go) print and read: `BENCH <json>` lines on
 * standard output, and the annotation each timed update carries with its send time.
 */
export const sentAtAnnotation = 'bench.fleet-gateway/sent-at-us';

/** Wall-clock microseconds, comparable across processes on one machine (Go's time.Now().UnixMicro()). */
export function wallClockMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** The writers of each burst of timed updates, in order: many at once, then one at a time. */
export const burstWriters: readonly number[] = [16, 1];

/** One burst of timed updates as a probe saw it. */
export interface BurstReport {
  readonly writers: number;
  /** Sorted ascending. */
  readonly watchLatencyMs: number[];
  /** Process CPU from `ready` to the last update observed. */
  readonly watchCpuMs: number;
}

export interface ProbeReport {
  readonly event: 'report';
  readonly objects: number;
  readonly baselineRssMiB: number;
  readonly syncSeconds: number;
  readonly syncCpuMs: number;
  readonly cacheHeapMiB: number;
  /** Every cached object's key enqueued at once into the controller's queue, to the last of those reconciles done. */
  readonly reconcilesPerSecond: number;
  /** In the order of `burstWriters`. */
  readonly bursts: BurstReport[];
  /** Threads that may run the runtime's code at once: GOMAXPROCS for Go, 1 for Node's JavaScript. */
  readonly threads: number;
}

/** `ready`: the probe waits for `updates` stamped updates from `writers` writers. */
export type ProbeLine = { readonly event: 'ready'; readonly writers: number } | ProbeReport;

export function emitBenchLine(line: ProbeLine): void {
  process.stdout.write(`BENCH ${JSON.stringify(line)}\n`);
}

export function parseBenchLine(line: string): ProbeLine | undefined {
  return line.startsWith('BENCH ') ? (JSON.parse(line.slice('BENCH '.length)) as ProbeLine) : undefined;
}
