import type { GlobalGateway, SourceRef } from '@fleet-gateway/model';
import type { CapacityLimits } from './afd-limits.js';
import { compositeRouteMetric } from './capacity.js';
import { canonicalJson, compareText } from './canonical.js';
import type { PlanProblem } from './plan-types.js';
import type { RoutePlan } from './plan-routes.js';
import type { HeldPattern, RouteSpec } from './spec-types.js';

/**
 * Keeps the planned AFD routes within AFD's routes per profile and composite route metric by age: routes are taken
 * oldest first (a route is as new as the newest HTTPRoute it serves), and those that no longer fit are held — their
 * patterns keep what AFD serves now, and the newest HTTPRoutes behind them are named (`TooManyRoutes`). So the
 * HTTPRoute that would tip the profile over its limit waits, instead of stopping every team's writes.
 */
export function withinRouteBudget(
  model: GlobalGateway,
  planned: Pick<RoutePlan, 'routes' | 'ruleSets' | 'rules'>,
  limits: Pick<CapacityLimits, 'routes' | 'compositeRouteMetric'>,
): RoutePlan {
  const created = new Map(model.routes.map((r) => [`${r.namespace}/${r.name}`, r.creationTimestamp ?? '\uffff']));
  const ageOf = (s: SourceRef) => (s.kind === 'HTTPRoute' ? (created.get(`${s.namespace}/${s.name}`) ?? '\uffff') : '');
  const newest = (route: RouteSpec) => route.provenance.map(ageOf).sort(compareText).at(-1) ?? '';
  const byAge = [...planned.routes].sort((a, b) => compareText(newest(a), newest(b)) || compareText(a.ref.route, b.ref.route));
  const kept: RouteSpec[] = [];
  const over: RouteSpec[] = [];
  let metric = 0;
  for (const route of byAge) {
    const cost = compositeRouteMetric([route]);
    if (over.length === 0 && kept.length < limits.routes && metric + cost <= limits.compositeRouteMetric) {
      kept.push(route);
      metric += cost;
    } else over.push(route);
  }
  if (over.length === 0) return { routes: planned.routes, ruleSets: planned.ruleSets, rules: planned.rules, held: [], problems: [] };
  const problems = new Map<string, PlanProblem>();
  const held = over.flatMap((route) => {
    const age = newest(route);
    const sources = route.provenance.filter((s) => ageOf(s) === age);
    for (const source of sources) {
      const message = `${source.namespace}/${source.name}: the Gateway's AFD profile would need more than its ${limits.routes} routes or its composite route metric of ${limits.compositeRouteMetric}; the newest routes wait, and what they serve keeps what AFD serves now`;
      problems.set(canonicalJson({ ...source, section: undefined }), {
        code: 'TooManyRoutes',
        message,
        source: { kind: source.kind, namespace: source.namespace, name: source.name },
        blocksWrites: false,
      });
    }
    const cause = [...new Set(sources.map((s) => `${s.namespace}/${s.name}`))]
      .map((r) => `${r} waits for room in the AFD profile (routes or composite route metric)`)
      .join('; ');
    const customDomain = route.customDomains[0];
    return route.patterns.flatMap((pattern) =>
      route.supportedProtocols.map((protocol): HeldPattern => ({
        ...(customDomain ? { customDomain } : {}),
        pattern,
        protocol,
        cause,
        provenance: route.provenance,
      })),
    );
  });
  const usedRuleSets = new Set(kept.flatMap((r) => r.ruleSets.map((s) => s.toLowerCase())));
  return {
    routes: planned.routes.filter((r) => kept.includes(r)),
    ruleSets: planned.ruleSets.filter((s) => usedRuleSets.has(s.ref.ruleSet.toLowerCase())),
    rules: planned.rules.filter((r) => usedRuleSets.has(r.ref.ruleSet.toLowerCase())),
    held,
    problems: [...problems.values()],
  };
}
