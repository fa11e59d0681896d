import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelBackend, ModelOrigin, RuleBackend } from './model-types.js';
import { trafficSplits } from './traffic-split.js';
import { MAX_ORIGIN_WEIGHT } from './weights.js';

/** Route weights (a fifth of them 0) over backends whose clusters carry ServiceExport weights, some clusters unknown. */
const backendSets = fc.array(
  fc.record({
    routeWeight: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) }),
    clusters: fc.array(fc.option(fc.integer({ min: 1, max: 1000 }), { freq: 5 }), { minLength: 1, maxLength: 40 }),
  }),
  { minLength: 1, maxLength: 4 },
);

type BackendSet = { routeWeight: number; clusters: (number | null)[] }[];

function origin(cluster: string, exportWeight: number | null): ModelOrigin {
  const source = { kind: 'InternalServiceExport', namespace: `fleet-member-${cluster}`, name: 'ns-svc' } as const;
  return exportWeight === null
    ? { cluster, state: 'unknown', unknownReason: 'stale', connectivity: 'public', source }
    : { cluster, state: 'known', exportWeight, connectivity: 'public', address: '20.0.0.1', source };
}

function modelBackends(set: BackendSet): { backends: Map<string, ModelBackend>; refs: RuleBackend[] } {
  const backends = new Map<string, ModelBackend>();
  const refs = set.map((b, i) => {
    const key = `ns/svc-${i}:80`;
    backends.set(key, {
      key,
      namespace: 'ns',
      name: `svc-${i}`,
      port: 80,
      connectivity: 'public',
      probe: { path: '/', protocol: 'Http', requestType: 'HEAD', intervalSeconds: 240 },
      latencySensitivityMilliseconds: 1000,
      origins: b.clusters.map((w, c) => origin(`member-${c}`, w)),
      source: { kind: 'ServiceImport', namespace: 'ns', name: `svc-${i}` },
    });
    return { backend: key, weight: b.routeWeight };
  });
  return { backends, refs };
}

/**
 * Each known origin's exact share among the known origins: its backend's share of the route weight times its share of
 * the backend's known export weight, renormalized over the known origins (unknown ones keep their last programmed
 * weight, so the arithmetic is over the origins resolve knows).
 */
function exactShares(set: BackendSet): Map<string, number> {
  const routeTotal = set.reduce((sum, b) => sum + b.routeWeight, 0);
  const shares = new Map<string, number>();
  set.forEach((b, i) => {
    const exportTotal = b.clusters.reduce<number>((sum, w) => sum + (w ?? 0), 0);
    b.clusters.forEach((w, c) => {
      if (w !== null && routeTotal > 0 && exportTotal > 0) shares.set(`ns/svc-${i}:80@member-${c}`, (b.routeWeight / routeTotal) * (w / exportTotal));
    });
  });
  const total = [...shares.values()].reduce((sum, v) => sum + v, 0);
  return new Map([...shares].map(([key, share]) => [key, total > 0 ? share / total : 0]));
}

describe('traffic splits as resolve computes them', () => {
  it('give enabled origins 1..1000, never 0; weight-0 backends disabled; unknown origins no weight at all', () => {
    fc.assert(
      fc.property(backendSets, (set) => {
        const { backends, refs } = modelBackends(set);
        const split = trafficSplits(backends).splitFor(refs);
        for (const entry of split.origins) {
          const backendWeight = refs.find((r) => r.backend === entry.backend)?.weight;
          const known = backends.get(entry.backend)?.origins.find((o) => o.cluster === entry.cluster)?.state === 'known';
          if (!known) expect(entry).toEqual({ backend: entry.backend, cluster: entry.cluster, state: 'unknown' });
          else if (backendWeight === 0) expect(entry).toEqual({ backend: entry.backend, cluster: entry.cluster, state: 'disabled' });
          else {
            expect(entry.state).toBe('enabled');
            expect(Number.isInteger(entry.weight) && entry.weight! >= 1 && entry.weight! <= MAX_ORIGIN_WEIGHT).toBe(true);
          }
        }
        expect(split.origins).toHaveLength(set.reduce((n, b) => n + b.clusters.length, 0));
      }),
      { seed: 4242, numRuns: 400 },
    );
  });

  it('keep every enabled origin within 0.1 percentage point of its exact share wherever AFD weights can express it', () => {
    fc.assert(
      fc.property(backendSets, (set) => {
        const exact = exactShares(set);
        const positive = [...exact.values()].filter((s) => s > 0);
        fc.pre(positive.length > 0 && Math.min(...positive) * MAX_ORIGIN_WEIGHT >= Math.max(...positive) * 1.001);
        const { backends, refs } = modelBackends(set);
        const enabled = trafficSplits(backends)
          .splitFor(refs)
          .origins.filter((o) => o.state === 'enabled');
        const total = enabled.reduce((sum, o) => sum + (o.weight ?? 0), 0);
        expect(enabled).toHaveLength(positive.length);
        for (const o of enabled) {
          expect(Math.abs((o.weight ?? 0) / total - (exact.get(`${o.backend}@${o.cluster}`) ?? -1))).toBeLessThanOrEqual(0.001);
        }
      }),
      { seed: 1001, numRuns: 400 },
    );
  });

  it('share one split between rules whose backend weights are proportional, in any order', () => {
    fc.assert(
      fc.property(backendSets, fc.integer({ min: 2, max: 50 }), (set, factor) => {
        const { backends, refs } = modelBackends(set);
        const splits = trafficSplits(backends);
        const scaled = refs.map((r) => ({ backend: r.backend, weight: r.weight * factor })).reverse();
        expect(splits.splitFor(scaled)).toBe(splits.splitFor(refs));
      }),
      { seed: 77, numRuns: 200 },
    );
  });
});
