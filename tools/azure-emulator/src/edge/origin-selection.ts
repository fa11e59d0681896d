import type { OriginEntry, OriginGroupEntry } from './routing-table.js';

export interface SelectionInputs {
  isHealthy: (originKey: string) => boolean;
  latencyMs: (origin: OriginEntry) => number;
  random: () => number;
}

export type Selection = { origin: OriginEntry } | { origin?: undefined; reason: 'no-enabled-origin' };

/**
 * AFD's origin selection (https://learn.microsoft.com/azure/frontdoor/routing-methods): among enabled origins
 * (Private Link ones only once Approved), the healthy ones — all of them when none is healthy —, then the lowest
 * priority, then those within `additionalLatencyInMilliseconds` of the fastest, then a weighted random choice.
 */
export function selectOrigin(group: OriginGroupEntry, inputs: SelectionInputs): Selection {
  const usable = group.origins.filter((origin) => origin.enabled && origin.privateLinkApproved !== false);
  if (usable.length === 0) return { reason: 'no-enabled-origin' };
  const healthy = usable.filter((origin) => inputs.isHealthy(origin.key));
  const pool = healthy.length > 0 ? healthy : usable;
  const topPriority = Math.min(...pool.map((origin) => origin.priority));
  const prioritized = pool.filter((origin) => origin.priority === topPriority);
  const fastest = Math.min(...prioritized.map(inputs.latencyMs));
  const inBand = prioritized.filter((origin) => inputs.latencyMs(origin) <= fastest + group.additionalLatencyMs);
  return { origin: weightedPick(inBand, inputs.random) };
}

function weightedPick(origins: readonly OriginEntry[], random: () => number): OriginEntry {
  const total = origins.reduce((sum, origin) => sum + origin.weight, 0);
  let ticket = random() * total;
  for (const origin of origins) {
    ticket -= origin.weight;
    if (ticket < 0) return origin;
  }
  return origins[origins.length - 1] as OriginEntry;
}
