import type { AFDOrigin } from '@azure/arm-cdn';
import { nameFromId } from '../plan/afd-refs.js';
import { carryOrigin } from './carry-origins.js';
import type { ObservedGraph } from '../observe/observe.js';
import { withoutUnusedGroups } from '../plan/plan-front-door.js';
import type { Kept } from './route-claims.js';
import { planSink } from '../plan/sink.js';
import type { FrontDoorGraph, OriginSpec, RouteSpec, RuleAction, RuleSpec } from '../plan/spec-types.js';

export interface WithdrawalResult {
  /** The desired graph in which every route and rule override points at a group that will have an enabled origin. */
  readonly graph: FrontDoorGraph;
  /** Observed groups a route stays on, exactly as they are, because its planned group would have none (unknown member data). */
  readonly heldGroups: Kept;
}

const lower = (name: string): string => name.toLowerCase();
const isEnabled = (arm: AFDOrigin | undefined): boolean => arm !== undefined && arm.enabledState !== 'Disabled';

/** The groups that will hold no enabled origin once the diff is applied: none desired enabled, none kept or carried enabled. */
function starvingGroups(graph: FrontDoorGraph, observed: ObservedGraph): Set<string> {
  const byGroup = new Map<string, OriginSpec[]>();
  for (const origin of graph.origins) {
    const group = lower(origin.ref.originGroup);
    const list = byGroup.get(group) ?? [];
    list.push(origin);
    byGroup.set(group, list);
  }
  const observedByKey = new Map(observed.origins.map((o) => [`${lower(o.parent ?? '')}/${lower(o.name)}`, o.arm]));
  const serves = (origin: OriginSpec, groupOrigins: readonly OriginSpec[]): boolean => {
    if (origin.keep === undefined) return origin.enabledState === 'Enabled';
    const have = observedByKey.get(`${lower(origin.ref.originGroup)}/${lower(origin.ref.origin)}`);
    if (have) return isEnabled(have);
    return isEnabled(carryOrigin(origin, { groupOrigins, observed: observed.origins })?.body);
  };
  const starving = new Set<string>();
  for (const group of graph.originGroups) {
    const name = lower(group.ref.originGroup);
    const groupOrigins = byGroup.get(name) ?? [];
    if (!groupOrigins.some((origin) => serves(origin, groupOrigins))) starving.add(name);
  }
  return starving;
}

/**
 * The plan already sends rules without origins to the sink group; what it cannot see is a group whose origins are
 * all `keep` (member data unknown) and observed disabled or absent, e.g. a rule that moved to a backend no member has
 * reported yet. AFD refuses a route or override to such a group (#18333), so: a route that exists stays on the group it
 * uses now when that group serves (last programmed, fail-static), otherwise it and every override go to the sink
 * (an error answer, never another backend).
 */
export function resolveWithdrawal(graph: FrontDoorGraph, observed: ObservedGraph): WithdrawalResult {
  const starving = starvingGroups(graph, observed);
  if (starving.size === 0) return { graph, heldGroups: new Map() };
  const { profile } = graph.profile.ref;
  const sink = planSink(profile, graph.endpoint.ref.endpoint, graph.endpoint.provenance);
  const sinkName = sink.group.ref.originGroup;
  const observedRoutes = new Map(observed.routes.filter((r) => lower(r.parent ?? '') === lower(graph.endpoint.ref.endpoint)).map((r) => [lower(r.name), r]));
  const withEnabledOrigin = new Set(observed.origins.filter((o) => isEnabled(o.arm)).map((o) => lower(o.parent ?? '')));
  const serving = new Map(observed.originGroups.filter((g) => withEnabledOrigin.has(lower(g.name))).map((g) => [lower(g.name), g.name]));
  const heldGroups: Kept = new Map();
  const routes = graph.routes.map((route): RouteSpec => {
    if (!starving.has(lower(route.originGroup))) return route;
    const current = observedRoutes.get(lower(route.ref.route));
    const currentGroup = serving.get(lower(nameFromId(current?.arm.originGroup?.id) ?? ''));
    if (current && currentGroup !== undefined && !starving.has(lower(currentGroup))) {
      const cause = `kept as last programmed: route ${route.ref.route} stays on it while origin group ${route.originGroup} has no enabled origin to take over (member data unknown)`;
      heldGroups.set(lower(currentGroup), { name: currentGroup, cause });
      const protocol = current.arm.forwardingProtocol;
      return {
        ...route,
        originGroup: currentGroup,
        forwardingProtocol: protocol === 'HttpOnly' || protocol === 'HttpsOnly' ? protocol : route.forwardingProtocol,
      };
    }
    return { ...route, originGroup: sinkName, forwardingProtocol: 'HttpOnly', withdrawn: true };
  });
  const toSink = (action: RuleAction): RuleAction =>
    action.type === 'originGroupOverride' && starving.has(lower(action.originGroup))
      ? { ...action, originGroup: sinkName, forwardingProtocol: 'HttpOnly' }
      : action;
  const rules = graph.rules.map((rule): RuleSpec => ({ ...rule, actions: rule.actions.map(toSink) }));
  const hasSink = graph.originGroups.some((g) => lower(g.ref.originGroup) === lower(sinkName));
  const withSink: FrontDoorGraph = {
    ...graph,
    routes,
    rules,
    originGroups: hasSink ? graph.originGroups : [...graph.originGroups, sink.group],
    origins: hasSink ? graph.origins : [...graph.origins, sink.origin],
  };
  // The starving groups leave the desired graph; a held group is not desired, the diff keeps it exactly as observed.
  return { graph: withoutUnusedGroups(withSink), heldGroups };
}
