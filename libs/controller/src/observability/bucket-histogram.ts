import type { LabelValues, Metric, Registry } from 'prom-client';

/** One label set's buckets (not cumulative: each observation counts in the first bucket that holds it). */
interface Series {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram for the paths that run per event and per reconcile: an observation through `series()` costs
 * a bucket search and three additions. prom-client's Histogram validates and hashes the label set on every observe,
 * even through a child of `labels()`, which was a measurable share of a watch event's CPU. It registers on a
 * prom-client Registry and reads out exactly as prom-client's Histogram does (same series, labels and values).
 */
export class BucketHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series_ = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    // The registry reads a metric only through get(), reset() and its name, type and help, which this has.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The observe function of one label set, created at zero so that it reads out before its first observation. */
  series(labels: LabelValues<L>): (value: number) => void {
    const key = this.labelNames.map((label) => String(labels[label])).join('\0');
    let series = this.series_.get(key);
    if (!series) {
      series = { labels: { ...labels } as Record<string, string | number>, counts: new Float64Array(this.buckets.length), sum: 0, count: 0 };
      this.series_.set(key, series);
    }
    const { buckets } = this;
    const found = series;
    return (value) => {
      let i = 0;
      while (i < buckets.length && value > buckets[i]!) i++;
      if (i < buckets.length) found.counts[i]! += 1;
      found.sum += value;
      found.count += 1;
    };
  }

  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, counts, sum, count } of this.series_.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.series_.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
