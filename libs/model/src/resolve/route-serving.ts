import type { HTTPRoute } from '@fleet-gateway/api-types';
import { readAcceptedSpec, type AcceptedSpec } from './accepted-spec.js';
import { resolveRoute, type RouteContext, type RouteResolution } from './route-resolution.js';

/** A route as the Gateway serves it: its current generation, or the last accepted one while an edit of its own is invalid. */
export interface RouteServing {
  /** The route's current generation: its status speaks of it. */
  readonly current: RouteResolution;
  /** What the model is built from: `current`, or the last accepted generation when held. */
  readonly served: RouteResolution;
  /** Set when the route is held: the generation `served` resolves. */
  readonly servingGeneration?: number;
}

/**
 * Everything that keeps the route from being served in full through this Gateway, one line each; empty when it is
 * fully valid. Its afd- annotations are left out: they are metadata, refused as they are whatever the spec.
 */
export function routeProblems(res: RouteResolution): Set<string> {
  return new Set([
    ...res.parents.flatMap(({ attachment }) =>
      attachment.ok
        ? attachment.attachments.flatMap((a) => a.refused.map((r) => `hostname ${r.host}: ${r.problem}`))
        : [`${attachment.reason}: ${attachment.message}`],
    ),
    ...res.rules.flatMap((rule) => rule.problems.map((problem) => `rule ${rule.index}: ${problem}`)),
    ...res.refProblems.map((problem) => `${problem.reason}: ${problem.message}`),
  ]);
}

/** The accepted spec resolved in today's world; undefined when the record no longer fits resolve (edited by hand). */
function resolveAccepted(route: HTTPRoute, record: AcceptedSpec, ctx: RouteContext): RouteResolution | undefined {
  const accepted: HTTPRoute = { ...route, metadata: { ...route.metadata, generation: record.generation }, spec: record.spec };
  try {
    return resolveRoute(accepted, ctx);
  } catch {
    // The record is an annotation anyone who may edit the route can change: one that breaks resolve is no record,
    // and must never stop the Gateway's other routes.
    return undefined;
  }
}

/**
 * Resolves a route of the Gateway; undefined when it is not a child (a parentRef removed withdraws it as always).
 * An edit that makes a programmed route invalid holds it: the model is built from the generation the Gateway last
 * accepted in full, resolved against today's objects, so its AFD configuration stays exactly as programmed. Only what
 * the edit broke holds: a problem the accepted spec has as well comes from outside the route (a ServiceImport or a
 * ReferenceGrant gone, allowedRoutes narrowed) and withdraws as it does for any route, held or not.
 */
export function resolveServing(route: HTTPRoute, ctx: RouteContext, gateway: string): RouteServing | undefined {
  const current = resolveRoute(route, ctx);
  if (!current) return undefined;
  const problems = routeProblems(current);
  const record = problems.size === 0 ? undefined : readAcceptedSpec(route, gateway);
  if (!record || record.generation === (route.metadata.generation ?? 0)) return { current, served: current };
  const accepted = resolveAccepted(route, record, ctx);
  // Accepted nowhere today (allowedRoutes narrowed, say), the accepted generation serves nothing either: nothing holds.
  if (!accepted || !accepted.parents.some((p) => p.attachment.ok) || accepted.keptRules.length === 0) return { current, served: current };
  const before = routeProblems(accepted);
  if ([...problems].every((p) => before.has(p))) return { current, served: current };
  return { current, served: accepted, servingGeneration: record.generation };
}
