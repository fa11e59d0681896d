/** Gateway API backendRef weights are integers from 0 to 1,000,000 (the CRD's bounds). */
export const MAX_ROUTE_WEIGHT = 1_000_000;

/** AFD origin weights are integers from 1 to 1000 (AFDOrigin.weight). */
export const MAX_ORIGIN_WEIGHT = 1000;

/**
 * Turns exact traffic shares into AFD origin weights by largest remainder. The largest share gets (close to) 1000
 * and the rest are scaled with it, so the apportioned total T is at least 1000 and every weight's share differs
 * from the exact share by less than 1/T (0.1 percentage point). A positive share too small for the range still
 * gets weight 1 (it is never sent as 0, which AFD would treat as no traffic); a zero share gets 0, which callers
 * turn into "disabled" or "left out".
 */
export function apportionWeights(shares: readonly number[]): number[] {
  const total = shares.reduce((sum, s) => sum + Math.max(0, s), 0);
  if (total <= 0) return shares.map(() => 0);
  const normalized = shares.map((s) => Math.max(0, s) / total);
  const largest = Math.max(...normalized);
  const seats = Math.floor(MAX_ORIGIN_WEIGHT / largest);
  const quotas = normalized.map((s) => s * seats);
  const weights = quotas.map((q) => Math.floor(q));
  let remaining = seats - weights.reduce((sum, w) => sum + w, 0);
  const byRemainder = quotas
    .map((q, i) => ({ i, remainder: q - Math.floor(q) }))
    .filter((r) => r.remainder > 0)
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (remaining <= 0) break;
    weights[i] = (weights[i] ?? 0) + 1;
    remaining--;
  }
  return weights.map((w, i) => ((normalized[i] ?? 0) > 0 ? Math.min(MAX_ORIGIN_WEIGHT, Math.max(1, w)) : 0));
}
