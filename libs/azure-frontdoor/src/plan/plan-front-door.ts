import type { GlobalGateway } from '@fleet-gateway/model';
import { endpointName, nameProblem, profileName, securityPolicyName } from './afd-names.js';
import { refKey, refName, type AfdRef } from './afd-refs.js';
import { limitsFor } from './afd-limits.js';
import { checkCapacity } from './capacity.js';
import { ownershipTags } from './ownership.js';
import { planOriginGroups } from './plan-origin-groups.js';
import { planCustomDomains } from './plan-custom-domains.js';
import { withinRouteBudget } from './plan-route-budget.js';
import { compareHeld, planRoutes } from './plan-routes.js';
import { planSink } from './sink.js';
import { compareText } from './canonical.js';
import type { FrontDoorPlan, PlanOptions, PlanProblem } from './plan-types.js';
import { findRoutePatternConflicts, patternProblem } from './route-patterns.js';
import type { AnySpec, FrontDoorGraph } from './spec-types.js';

export function allRefs(graph: FrontDoorGraph): AfdRef[] {
  return [
    graph.profile.ref,
    graph.endpoint.ref,
    ...graph.customDomains.map((s) => s.ref),
    ...graph.originGroups.map((s) => s.ref),
    ...graph.origins.map((s) => s.ref),
    ...graph.ruleSets.map((s) => s.ref),
    ...graph.rules.map((s) => s.ref),
    ...graph.routes.map((s) => s.ref),
    ...(graph.securityPolicy ? [graph.securityPolicy.ref] : []),
  ];
}

/** Every resource spec of the graph, in the order of allRefs. */
export function allSpecs(graph: FrontDoorGraph): AnySpec[] {
  return [
    graph.profile,
    graph.endpoint,
    ...graph.customDomains,
    ...graph.originGroups,
    ...graph.origins,
    ...graph.ruleSets,
    ...graph.rules,
    ...graph.routes,
    ...(graph.securityPolicy ? [graph.securityPolicy] : []),
  ];
}

/** The graph without the origin groups (and their origins) that no route or rule override reaches. */
export function withoutUnusedGroups(graph: FrontDoorGraph): FrontDoorGraph {
  const used = new Set(graph.routes.map((r) => r.originGroup.toLowerCase()));
  for (const rule of graph.rules) {
    for (const action of rule.actions) if (action.type === 'originGroupOverride') used.add(action.originGroup.toLowerCase());
  }
  return {
    ...graph,
    originGroups: graph.originGroups.filter((g) => used.has(g.ref.originGroup.toLowerCase())),
    origins: graph.origins.filter((o) => used.has(o.ref.originGroup.toLowerCase())),
  };
}

/** Names must be valid for their kind and distinct within their parent; hashing makes a clash practically impossible, this proves it. */
function checkNames(graph: FrontDoorGraph): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const seen = new Set<string>();
  for (const ref of allRefs(graph)) {
    const invalid = nameProblem(ref.kind, refName(ref));
    if (invalid) problems.push({ code: 'InvalidName', message: invalid, blocksWrites: true });
    const key = refKey(ref);
    if (seen.has(key)) problems.push({ code: 'NameCollision', message: `two planned resources share the name ${key}`, blocksWrites: true });
    seen.add(key);
  }
  return problems;
}

/**
 * The desired AFD graph of one Gateway (pure): one profile and one endpoint, a custom domain per hostname, origin
 * groups and origins, routes and rule sets per domain, a security policy over every domain when a WAF policy is attached; plus what could not be planned
 * and the capacity preflight.
 */
export function planFrontDoor(model: GlobalGateway, options: PlanOptions): FrontDoorPlan {
  const { gateway, config } = model;
  const profile = profileName(gateway);
  const endpoint = endpointName(gateway);
  const tags = ownershipTags({ hubIdentity: options.hubIdentity, gateway });
  const sink = planSink(profile, endpoint, [model.source]);
  const groups = planOriginGroups(model, profile, sink.group.ref.originGroup);
  const limits = limitsFor(config.sku, options.capacityLimits);
  const planned = planRoutes({
    model,
    profile,
    endpoint,
    groupOfRule: groups.groupOfRule,
    problemOfRule: groups.problemOfRule,
    rulesPerRuleSet: limits.rulesPerRuleSet,
  });
  const routes = withinRouteBudget(model, planned, limits);
  const customDomains = planCustomDomains(model, profile);
  // A group no planned route reaches (its rules were all reported) is not created; nor is the sink when no rule needs it.
  const graph = withoutUnusedGroups({
    profile: {
      ref: { kind: 'profile', profile },
      sku: config.sku,
      tags,
      originResponseTimeoutSeconds: config.originResponseTimeoutSeconds,
      provenance: [model.source],
    },
    endpoint: { ref: { kind: 'endpoint', profile, endpoint }, tags, provenance: [model.source] },
    customDomains,
    originGroups: [...groups.groups, sink.group].sort((a, b) => compareText(a.ref.originGroup, b.ref.originGroup)),
    origins: [...groups.origins, sink.origin].sort((a, b) => compareText(a.ref.originGroup, b.ref.originGroup) || compareText(a.ref.origin, b.ref.origin)),
    ruleSets: routes.ruleSets,
    rules: routes.rules,
    routes: routes.routes,
    ...(config.wafPolicy
      ? {
          securityPolicy: {
            ref: { kind: 'securityPolicy', profile, securityPolicy: securityPolicyName(gateway) },
            wafPolicyId: config.wafPolicy.id,
            endpoints: [endpoint],
            customDomains: customDomains.map((d) => d.ref.customDomain),
            provenance: [model.source],
          },
        }
      : {}),
    held: [...planned.held, ...routes.held].sort(compareHeld),
  });
  const conflicts: PlanProblem[] = findRoutePatternConflicts(graph.routes).map((c) => ({
    code: 'DuplicateRoutePattern',
    message: c.message,
    blocksWrites: true,
  }));
  const invalidPatterns: PlanProblem[] = graph.routes.flatMap((r) =>
    r.patterns.flatMap((pattern) => {
      const problem = patternProblem(pattern);
      return problem ? [{ code: 'InvalidRoutePattern' as const, message: `route ${r.ref.route}: ${problem}`, blocksWrites: true }] : [];
    }),
  );
  return {
    graph,
    problems: [...groups.problems, ...planned.problems, ...routes.problems, ...conflicts, ...invalidPatterns, ...checkNames(graph)],
    capacity: checkCapacity(graph, config.sku, options.capacityLimits),
  };
}
