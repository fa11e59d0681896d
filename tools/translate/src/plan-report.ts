import { armId, isWritable, refName, type AfdRef, type FrontDoorPlan, type FrontDoorScope } from '@fleet-gateway/azure-frontdoor';

/** The plan as the tool prints it: every AFD resource by kind, in the plan's own (deterministic) order. */
export interface PlanReport {
  readonly writable: boolean;
  readonly resources: Readonly<Record<string, readonly object[]>>;
  readonly held: FrontDoorPlan['graph']['held'];
  readonly problems: FrontDoorPlan['problems'];
  readonly capacity: FrontDoorPlan['capacity'];
}

/** A spec with its typed ref replaced by the name and ARM id a reader looks for first. */
function named<T extends { readonly ref: AfdRef }>(scope: FrontDoorScope, spec: T): object {
  const { ref, ...rest } = spec;
  return { name: refName(ref), id: armId(scope, ref), ...rest };
}

export function reportPlan(plan: FrontDoorPlan, scope: FrontDoorScope): PlanReport {
  const { graph } = plan;
  const list = <T extends { readonly ref: AfdRef }>(specs: readonly T[]) => specs.map((spec) => named(scope, spec));
  // Kinds in the order they are applied (parents before children), so the report reads top-down.
  return {
    writable: isWritable(plan),
    resources: {
      profile: list([graph.profile]),
      endpoint: list([graph.endpoint]),
      customDomain: list(graph.customDomains),
      originGroup: list(graph.originGroups),
      origin: list(graph.origins),
      ruleSet: list(graph.ruleSets),
      rule: list(graph.rules),
      route: list(graph.routes),
      securityPolicy: list(graph.securityPolicy ? [graph.securityPolicy] : []),
    },
    held: graph.held,
    problems: plan.problems,
    capacity: plan.capacity,
  };
}
