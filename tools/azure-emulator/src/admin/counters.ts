/** Request counts by method, resource type and status, for tests and benchmarks to read. */
export interface CounterEntry {
  method: string;
  resourceType: string;
  status: number;
  count: number;
}

export class RequestCounters {
  private readonly counts = new Map<string, CounterEntry>();

  record(method: string, resourceType: string, status: number): void {
    const key = `${method} ${resourceType} ${status}`;
    const entry = this.counts.get(key);
    if (entry === undefined) this.counts.set(key, { method, resourceType, status, count: 1 });
    else entry.count += 1;
  }

  entries(): CounterEntry[] {
    return [...this.counts.values()].map((entry) => ({ ...entry }));
  }

  /** The sum over entries matching every given field. */
  total(filter: Partial<Omit<CounterEntry, 'count'>> = {}): number {
    return this.entries()
      .filter(
        (entry) =>
          (filter.method === undefined || entry.method === filter.method) &&
          (filter.resourceType === undefined || entry.resourceType.toLowerCase() === filter.resourceType.toLowerCase()) &&
          (filter.status === undefined || entry.status === filter.status),
      )
      .reduce((sum, entry) => sum + entry.count, 0);
  }

  reset(): void {
    this.counts.clear();
  }
}
