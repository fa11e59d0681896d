import type { ModelBackend, RuleBackend, SplitEntry, TrafficSplit } from './model-types.js';
import { compareText } from '@fleet-gateway/api-types';
import { apportionWeights } from './weights.js';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Backends in key order with weights divided by their common divisor, so 70/30 and 7/3 are one split. */
function reduceBackends(refs: readonly RuleBackend[]): RuleBackend[] {
  const divisor = refs.reduce((d, r) => gcd(d, r.weight), 0) || 1;
  return [...refs].sort((a, b) => compareText(a.backend, b.backend)).map((r) => ({ backend: r.backend, weight: r.weight / divisor }));
}

function splitKey(reduced: readonly RuleBackend[]): string {
  return reduced.map((r) => `${r.backend}=${r.weight}`).join(',');
}

/**
 * A backend set's traffic over origins: route weight share of each backend times ServiceExport weight share of
 * each of its known clusters. Unknown clusters keep whatever the provider last programmed, so they take no part in
 * the arithmetic; known origins of a weight-0 backend are disabled, never sent as weight 0.
 */
function splitTraffic(reduced: readonly RuleBackend[], backends: ReadonlyMap<string, ModelBackend>): TrafficSplit {
  const routeTotal = reduced.reduce((sum, r) => sum + r.weight, 0);
  const candidates: { backend: string; cluster: string; state: 'known' | 'unknown'; share: number }[] = [];
  for (const ref of reduced) {
    const origins = backends.get(ref.backend)?.origins ?? [];
    const exportTotal = origins.reduce((sum, o) => sum + (o.exportWeight ?? 0), 0);
    for (const origin of origins) {
      const share = origin.state === 'known' && routeTotal > 0 && exportTotal > 0 ? (ref.weight / routeTotal) * ((origin.exportWeight ?? 0) / exportTotal) : 0;
      candidates.push({ backend: ref.backend, cluster: origin.cluster, state: origin.state, share });
    }
  }
  const weights = apportionWeights(candidates.map((c) => c.share));
  const origins: SplitEntry[] = candidates.map((c, i) => {
    if (c.state === 'unknown') return { backend: c.backend, cluster: c.cluster, state: 'unknown' };
    const weight = weights[i] ?? 0;
    return weight > 0 ? { backend: c.backend, cluster: c.cluster, state: 'enabled', weight } : { backend: c.backend, cluster: c.cluster, state: 'disabled' };
  });
  return { key: splitKey(reduced), backends: reduced, origins };
}

/** Computes each distinct split once per resolve, however many rules share it. */
export function trafficSplits(backends: ReadonlyMap<string, ModelBackend>) {
  const splits = new Map<string, TrafficSplit>();
  return {
    splitFor(refs: readonly RuleBackend[]): TrafficSplit {
      const reduced = reduceBackends(refs);
      const key = splitKey(reduced);
      let split = splits.get(key);
      if (!split) {
        split = splitTraffic(reduced, backends);
        splits.set(key, split);
      }
      return split;
    },
    splits,
  };
}
