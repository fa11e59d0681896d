import { armId, type FrontDoorScope } from '../plan/afd-refs.js';
import { customDomainBody, endpointBody, originBody, originGroupBody, profileBody, routeBody, ruleBody, securityPolicyBody } from '../diff/arm-bodies.js';
import type { ObservedGraph } from '../observe/observe.js';
import type { FrontDoorGraph } from '../plan/spec-types.js';

const done = { provisioningState: 'Succeeded', deploymentStatus: 'Succeeded' };

/** Test support: what ARM would report once `graph` is fully applied (keep-origins are absent, as never created). */
export function observedFromGraph(graph: FrontDoorGraph, scope: FrontDoorScope): ObservedGraph {
  const named = <T extends object>(name: string, arm: T, parent?: string) => ({ name, ...(parent ? { parent } : {}), arm: { ...arm, name, ...done } });
  return {
    profile: { ...profileBody(graph.profile), name: graph.profile.ref.profile, id: armId(scope, graph.profile.ref), ...done },
    endpoints: [named(graph.endpoint.ref.endpoint, { ...endpointBody(graph.endpoint), hostName: `${graph.endpoint.ref.endpoint}-abc.z01.azurefd.net` })],
    foreignEndpoints: [],
    customDomains: graph.customDomains.map((d) => named(d.ref.customDomain, { ...customDomainBody(d), domainValidationState: 'Approved' })),
    originGroups: graph.originGroups.map((g) => named(g.ref.originGroup, originGroupBody(g))),
    origins: graph.origins.flatMap((o) => (o.keep === undefined ? [named(o.ref.origin, originBody(o), o.ref.originGroup)] : [])),
    ruleSets: graph.ruleSets.map((s) => named(s.ref.ruleSet, {})),
    rules: graph.rules.map((r) => named(r.ref.rule, ruleBody(r, scope), r.ref.ruleSet)),
    routes: graph.routes.map((r) => named(r.ref.route, routeBody(r, scope), r.ref.endpoint)),
    securityPolicies: graph.securityPolicy ? [named(graph.securityPolicy.ref.securityPolicy, securityPolicyBody(graph.securityPolicy, scope))] : [],
    reads: 0,
  };
}
