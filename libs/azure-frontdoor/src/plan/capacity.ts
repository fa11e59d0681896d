import { DIMENSION_LABELS, limitsFor, type CapacityDimension, type CapacityLimits } from './afd-limits.js';
import type { AfdRef } from './afd-refs.js';
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

export type Measured = Record<CapacityDimension, { value: number; within?: string }>;

/** One resource as AFD counts it; a route adds its patterns × protocols (one domain each) to the composite metric. */
export interface Counted {
  readonly ref: AfdRef;
  readonly routeMetric?: number;
}

/** Each route serves the endpoint's default domain only (custom domains come later): 1 domain per protocol. */
export function compositeRouteMetric(routes: readonly Pick<RouteSpec, 'patterns' | 'supportedProtocols'>[]): number {
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

export function measureResources(items: readonly Counted[]): Measured {
  const refs = items.map((i) => i.ref);
  const count = (kind: AfdRef['kind']) => refs.filter((r) => r.kind === kind).length;
  const perGroup = largestBy(
    refs.flatMap((r) => (r.kind === 'origin' ? [r.originGroup] : [])),
    (g) => g,
  );
  const perRuleSet = largestBy(
    refs.flatMap((r) => (r.kind === 'rule' ? [r.ruleSet] : [])),
    (s) => s,
  );
  return {
    endpoints: { value: count('endpoint') },
    originGroups: { value: count('originGroup') },
    origins: { value: count('origin') },
    originsPerOriginGroup: { value: perGroup.count, ...(perGroup.key ? { within: `origin group ${perGroup.key}` } : {}) },
    routes: { value: count('route') },
    ruleSets: { value: count('ruleSet') },
    rulesPerRuleSet: { value: perRuleSet.count, ...(perRuleSet.key ? { within: `rule set ${perRuleSet.key}` } : {}) },
    securityPolicies: { value: count('securityPolicy') },
    customDomains: { value: count('customDomain') },
    compositeRouteMetric: { value: items.reduce((sum, i) => sum + (i.routeMetric ?? 0), 0) },
  };
}

/** Every dimension of the planned graph, as AFD counts it (origins as planned: one per group × backend × cluster). */
export function measureGraph(graph: FrontDoorGraph): Measured {
  return measureResources([
    { ref: graph.endpoint.ref },
    ...graph.customDomains.map((s) => ({ ref: s.ref })),
    ...graph.originGroups.map((s) => ({ ref: s.ref })),
    ...graph.origins.map((s) => ({ ref: s.ref })),
    ...graph.ruleSets.map((s) => ({ ref: s.ref })),
    ...graph.rules.map((s) => ({ ref: s.ref })),
    ...graph.routes.map((s) => ({ ref: s.ref, routeMetric: compositeRouteMetric([s]) })),
    ...(graph.securityPolicy ? [{ ref: graph.securityPolicy.ref }] : []),
  ]);
}

/** How much of each AFD limit a graph uses: the figures behind the capacity metrics. */
export interface CapacityUsage {
  readonly dimension: CapacityDimension;
  readonly value: number;
  readonly limit: number;
}

export function capacityUsage(measured: Measured, sku: AfdSku, overrides: Partial<CapacityLimits> = {}): CapacityUsage[] {
  const limits = limitsFor(sku, overrides);
  return (Object.keys(limits) as CapacityDimension[]).map((dimension) => ({ dimension, value: measured[dimension].value, limit: limits[dimension] }));
}

/** Every dimension over its limit, each naming the dimension, the value and the limit. */
export function capacityViolations(measured: Measured, sku: AfdSku, overrides: Partial<CapacityLimits> = {}): CapacityViolation[] {
  const limits = limitsFor(sku, overrides);
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

/**
 * Capacity preflight of the plan: any violation means no Azure write at all (the last programmed graph keeps
 * serving). The reconcile checks `measureAfterApply` (diff/capacity-after-apply.ts) too, once it has observed what is kept besides the plan.
 */
export function checkCapacity(graph: FrontDoorGraph, sku: AfdSku, overrides: Partial<CapacityLimits> = {}): CapacityViolation[] {
  return capacityViolations(measureGraph(graph), sku, overrides);
}
