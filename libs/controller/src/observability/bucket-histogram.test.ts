import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BucketHistogram } from './bucket-histogram.js';

const buckets = [0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

describe('BucketHistogram', () => {
  it('reads out exactly as prom-client Histogram does for the same observations, label sets created at zero included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.oneof(fc.constantFrom(...buckets), fc.double({ min: 0, max: 100, noNaN: true }))), {
          maxLength: 60,
        }),
        async (observations) => {
          const ours = new Registry();
          const theirs = new Registry();
          const histogram = new BucketHistogram('queue_seconds', 'Time waited.', ['name'], buckets, ours);
          const reference = new Histogram({ name: 'queue_seconds', help: 'Time waited.', labelNames: ['name'], buckets, registers: [theirs] });
          const series = { a: histogram.series({ name: 'a' }), b: histogram.series({ name: 'b' }), c: histogram.series({ name: 'c' }) };
          for (const name of ['a', 'b', 'c']) reference.zero({ name });
          for (const [name, seconds] of observations) {
            series[name](seconds);
            reference.observe({ name }, seconds);
          }
          expect(await ours.metrics()).toBe(await theirs.metrics());
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('hands one label set the same series however often it is asked for, and reset zeroes every series', async () => {
    const registry = new Registry();
    const histogram = new BucketHistogram('reconcile_seconds', 'Time spent.', ['controller'], [0.1, 1], registry);
    histogram.series({ controller: 'x' })(0.05);
    histogram.series({ controller: 'x' })(2);
    let text = await registry.metrics();
    expect(text).toContain('reconcile_seconds_bucket{le="0.1",controller="x"} 1');
    expect(text).toContain('reconcile_seconds_bucket{le="+Inf",controller="x"} 2');
    expect(text).toContain('reconcile_seconds_count{controller="x"} 2');
    registry.resetMetrics();
    text = await registry.metrics();
    expect(text).toContain('reconcile_seconds_count{controller="x"} 0');
    expect(text).toContain('reconcile_seconds_sum{controller="x"} 0');
  });
});
