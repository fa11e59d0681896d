import { DIMENSION_LABELS, limitsFor, type CapacityDimension, type CapacityLimits } from './afd-limits.js';
import type { AfdSku, FrontDoorGraph, RouteSpec } from './spec-types.js';
import { compareText } from './canonical.js';

export interface CapacityViolation {
  readonly dimension: CapacityDimension;
  readonly value: number;
  readonly limit: number;
  /** The resource the value belongs to, for per-group and per-rule-set dimensions. */
  readonly within?: string;
  readonly message: string;
}

/** Each route serves the endpoint's default domain only (custom domains come later): 1 domain per protocol. */
export function compositeRouteMetric(routes: readonly RouteSpec[]): number {
  return routes.reduce((sum, route) => sum + route.patterns.length * route.supportedProtocols.length, 0);
}

function largestBy<T>(items: readonly T[], keyOf: (item: T) => string): { key?: string; count: number } {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  let best: { key?: string; count: number } = { count: 0 };
  for (const [key, count] of [...counts.entries()].sort(([a], [b]) => compareText(a, b))) {
    if (count > best.count) best = { key, count };
  }
  return best;
}

/** Every dimension of the planned graph, as AFD counts it. */
export function measureGraph(graph: FrontDoorGraph): Record<CapacityDimension, { value: number; within?: string }> {
  const perGroup = largestBy(graph.origins, (o) => o.ref.originGroup);
  const perRuleSet = largestBy(graph.rules, (r) => r.ref.ruleSet);
  return {
    endpoints: { value: 1 },
    originGroups: { value: graph.originGroups.length },
    origins: { value: graph.origins.length },
    originsPerOriginGroup: { value: perGroup.count, ...(perGroup.key ? { within: `origin group ${perGroup.key}` } : {}) },
    routes: { value: graph.routes.length },
    ruleSets: { value: graph.ruleSets.length },
    rulesPerRuleSet: { value: perRuleSet.count, ...(perRuleSet.key ? { within: `rule set ${perRuleSet.key}` } : {}) },
    securityPolicies: { value: graph.securityPolicy ? 1 : 0 },
    customDomains: { value: 0 },
    compositeRouteMetric: { value: compositeRouteMetric(graph.routes) },
  };
}

/**
 * Capacity preflight: every dimension over its limit, each naming the dimension, the value and the limit. Any
 * violation means no Azure write at all (the last programmed graph keeps serving).
 */
export function checkCapacity(graph: FrontDoorGraph, sku: AfdSku, overrides: Partial<CapacityLimits> = {}): CapacityViolation[] {
  const limits = limitsFor(sku, overrides);
  const measured = measureGraph(graph);
  const violations: CapacityViolation[] = [];
  for (const dimension of Object.keys(limits) as CapacityDimension[]) {
    const { value, within } = measured[dimension];
    const limit = limits[dimension];
    if (value <= limit) continue;
    const where = within ? ` (${within})` : '';
    violations.push({
      dimension,
      value,
      limit,
      ...(within ? { within } : {}),
      message: `CapacityExceeded: ${DIMENSION_LABELS[dimension]} would be ${value}${where}; the limit for ${sku} is ${limit}`,
    });
  }
  return violations;
}
