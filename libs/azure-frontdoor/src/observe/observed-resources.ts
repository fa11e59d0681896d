import type { AFDDomain, AFDEndpoint, AFDOrigin, AFDOriginGroup, Profile, Route, Rule, RuleSet, SecurityPolicy } from '@azure/arm-cdn';
import type { AfdRef } from '../plan/afd-refs.js';
import type { ObservedGraph } from './observe.js';

export type ObservedArm = Profile | AFDEndpoint | AFDDomain | AFDOriginGroup | AFDOrigin | RuleSet | Rule | Route | SecurityPolicy;

/** Every resource of the graph with its typed reference (`profile` names the profile the graph was read from). */
export function observedResources(observed: ObservedGraph, profile: string): { ref: AfdRef; arm: ObservedArm }[] {
  return [
    ...(observed.profile ? [{ ref: { kind: 'profile', profile } as const, arm: observed.profile }] : []),
    ...observed.endpoints.map((e) => ({ ref: { kind: 'endpoint', profile, endpoint: e.name } as const, arm: e.arm })),
    ...observed.customDomains.map((d) => ({ ref: { kind: 'customDomain', profile, customDomain: d.name } as const, arm: d.arm })),
    ...observed.originGroups.map((g) => ({ ref: { kind: 'originGroup', profile, originGroup: g.name } as const, arm: g.arm })),
    ...observed.origins.map((o) => ({ ref: { kind: 'origin', profile, originGroup: o.parent ?? '', origin: o.name } as const, arm: o.arm })),
    ...observed.ruleSets.map((s) => ({ ref: { kind: 'ruleSet', profile, ruleSet: s.name } as const, arm: s.arm })),
    ...observed.rules.map((r) => ({ ref: { kind: 'rule', profile, ruleSet: r.parent ?? '', rule: r.name } as const, arm: r.arm })),
    ...observed.routes.map((r) => ({ ref: { kind: 'route', profile, endpoint: r.parent ?? '', route: r.name } as const, arm: r.arm })),
    ...observed.securityPolicies.map((s) => ({ ref: { kind: 'securityPolicy', profile, securityPolicy: s.name } as const, arm: s.arm })),
  ];
}
