import { nameFromId } from './afd-refs.js';
import type { ObservedGraph } from './observe.js';
import { withoutUnusedGroups } from './plan-front-door.js';
import type { FrontDoorGraph, RouteSpec } from './spec-types.js';

export interface WithdrawalResult {
  /** The desired graph with withdrawn routes pointing at the group they already use. */
  readonly graph: FrontDoorGraph;
  /** Observed groups kept as they are (origins disabled) because a withdrawn route still uses them. */
  readonly keptGroups: readonly string[];
}

/**
 * Withdrawal keeps a route and its origin group: a withdrawn route that already points at an existing group stays
 * on it (whatever group the plan would name now, e.g. after its last backend was removed), and that group keeps
 * its origins, disabled. Groups no route uses any more are dropped from the desired graph.
 */
export function resolveWithdrawal(graph: FrontDoorGraph, observed: ObservedGraph): WithdrawalResult {
  const observedGroups = new Map(observed.originGroups.map((g) => [g.name.toLowerCase(), g.name]));
  const observedRoutes = new Map(observed.routes.map((r) => [r.name.toLowerCase(), r]));
  const desiredGroups = new Set(graph.originGroups.map((g) => g.ref.originGroup.toLowerCase()));
  const kept = new Set<string>();
  const routes: RouteSpec[] = graph.routes.map((route) => {
    if (!route.withdrawn) return route;
    const current = nameFromId(observedRoutes.get(route.ref.route.toLowerCase())?.arm.originGroup?.id)?.toLowerCase();
    const currentName = current === undefined ? undefined : observedGroups.get(current);
    if (current === undefined || currentName === undefined || current === route.originGroup.toLowerCase()) return route;
    if (!desiredGroups.has(current)) kept.add(currentName);
    return { ...route, originGroup: currentName };
  });
  return { graph: withoutUnusedGroups({ ...graph, routes }), keptGroups: [...kept] };
}
