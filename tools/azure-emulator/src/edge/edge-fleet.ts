import type { RoutingTable } from './routing-table.js';

export interface SimulatedEdge {
  index: number;
  delayMs: number;
  table: RoutingTable;
}

/**
 * Several simulated edges (POPs), each applying a published configuration after its own delay, so a change is
 * visible at some edges before others. Delays are constant per edge, so every edge applies versions in order.
 */
export class EdgeFleet {
  readonly edges: SimulatedEdge[];
  private latest: RoutingTable;
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiters: Array<{ version: number; resolve: () => void }> = [];
  private nextEdge = 0;

  constructor(delaysMs: readonly number[], initial: RoutingTable) {
    if (delaysMs.length === 0) throw new Error('edge.propagationDelaysMs must name at least one edge');
    this.latest = initial;
    this.edges = delaysMs.map((delayMs, index) => ({ index, delayMs, table: initial }));
  }

  publish(table: RoutingTable): void {
    this.latest = table;
    for (const edge of this.edges) {
      if (edge.delayMs <= 0) {
        this.apply(edge, table);
        continue;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.apply(edge, table);
      }, edge.delayMs);
      timer.unref();
      this.timers.add(timer);
    }
  }

  latestTable(): RoutingTable {
    return this.latest;
  }

  /** The edge a request lands on: the one a test names, else the next in turn. */
  pick(requested: number | undefined): SimulatedEdge {
    if (requested !== undefined && this.edges[requested] !== undefined) return this.edges[requested];
    const edge = this.edges[this.nextEdge % this.edges.length] as SimulatedEdge;
    this.nextEdge += 1;
    return edge;
  }

  /** Resolves once every edge has applied the newest published version (or `version`, if given). */
  whenPropagated(version = this.latest.version): Promise<void> {
    if (this.edges.every((edge) => edge.table.version >= version)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ version, resolve }));
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private apply(edge: SimulatedEdge, table: RoutingTable): void {
    if (table.version < edge.table.version) return;
    edge.table = table;
    const minimum = Math.min(...this.edges.map((candidate) => candidate.table.version));
    const ready = this.waiters.filter((waiter) => waiter.version <= minimum);
    this.waiters = this.waiters.filter((waiter) => waiter.version > minimum);
    for (const waiter of ready) waiter.resolve();
  }
}
