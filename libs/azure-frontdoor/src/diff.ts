import type { AFDOrigin } from '@azure/arm-cdn';
import { describeRef, refName, type AfdRef, type FrontDoorScope } from './afd-refs.js';
import {
  endpointBody,
  originBody,
  originGroupBody,
  profileBody,
  routeBody,
  ruleBody,
  securityPolicyBody,
} from './arm-bodies.js';
import {
  comparableEndpoint,
  comparableOrigin,
  comparableOriginGroup,
  comparableProfile,
  comparableRoute,
  comparableRule,
  comparableSecurityPolicy,
  differences,
  type Comparable,
} from './comparable.js';
import type { Observed, ObservedGraph } from './observe.js';
import type { Operation } from './operations.js';
import type { FrontDoorGraph, Provenance } from './spec-types.js';
import { resolveWithdrawal } from './withdrawal.js';

export interface Note {
  readonly ref: AfdRef;
  readonly reason: string;
}

export interface DiffResult {
  readonly operations: readonly Operation[];
  /** Desired resources that already match. */
  readonly unchanged: readonly AfdRef[];
  /** Resources left exactly as they are on purpose (unknown member data, withdrawn leftovers). */
  readonly kept: readonly Note[];
  /** Desired resources that cannot be programmed yet, and why (nothing is written for them). */
  readonly notProgrammed: readonly Note[];
  /** The desired graph after withdrawal kept routes on their current groups. */
  readonly graph: FrontDoorGraph;
}

class DiffBuilder {
  readonly operations: Operation[] = [];
  readonly unchanged: AfdRef[] = [];
  readonly kept: Note[] = [];
  readonly notProgrammed: Note[] = [];

  /** Create when absent, update when a managed field differs, nothing otherwise. */
  converge(ref: AfdRef, body: object, want: Comparable, observed: Comparable | undefined, provenance: Provenance, observedState?: string): void {
    if (observed === undefined) {
      this.operations.push({ action: 'create', ref, body, changes: [], reason: `${describeRef(ref)} does not exist`, provenance });
      return;
    }
    // A resource whose last write failed is written again, even when its properties look right.
    const changes = [...differences(want, observed), ...(observedState === 'Failed' ? ['provisioningState Failed'] : [])];
    if (changes.length === 0) {
      this.unchanged.push(ref);
      return;
    }
    this.operations.push({ action: 'update', ref, body, changes, reason: `${describeRef(ref)} differs: ${changes.join(', ')}`, provenance });
  }

  /** `converge` for every spec of a kind, looking each up among the observed resources by parent and name. */
  convergeAll<S extends { ref: AfdRef; provenance: Provenance }, A extends { provisioningState?: string }>(
    specs: readonly S[],
    observed: readonly Observed<A>[],
    parentOf: (spec: S) => string,
    bodyOf: (spec: S) => object,
    project: (arm: A) => Comparable,
  ): void {
    const current = byName(observed);
    for (const spec of specs) {
      const have = current.get(key(parentOf(spec), refName(spec.ref)));
      const body = bodyOf(spec);
      this.converge(spec.ref, body, project(body as A), have && project(have.arm), spec.provenance, have?.arm.provisioningState);
    }
  }

  remove(ref: AfdRef, reason: string): void {
    this.operations.push({ action: 'delete', ref, changes: [], reason, provenance: [] });
  }
}

function byName<T>(items: readonly Observed<T>[]): Map<string, Observed<T>> {
  return new Map(items.map((item) => [`${item.parent ?? ''}/${item.name}`.toLowerCase(), item]));
}

function key(parent: string, name: string): string {
  return `${parent}/${name}`.toLowerCase();
}

/** The writable fields of an observed origin, disabled: what a withdrawn group keeps for a cluster that left. */
function disabledCopy(origin: AFDOrigin): AFDOrigin {
  const { hostName, httpPort, httpsPort, originHostHeader, priority, weight, enforceCertificateNameCheck, azureOrigin, sharedPrivateLinkResource } = origin;
  const pl = sharedPrivateLinkResource;
  return {
    hostName,
    httpPort,
    httpsPort,
    ...(originHostHeader ? { originHostHeader } : {}),
    priority,
    weight,
    enforceCertificateNameCheck,
    ...(azureOrigin ? { azureOrigin } : {}),
    ...(pl ? { sharedPrivateLinkResource: { privateLink: pl.privateLink, privateLinkLocation: pl.privateLinkLocation, requestMessage: pl.requestMessage, groupId: pl.groupId } } : {}),
    enabledState: 'Disabled',
  };
}

function diffOrigins(b: DiffBuilder, graph: FrontDoorGraph, observed: ObservedGraph, withdrawn: ReadonlySet<string>, liveGroups: ReadonlySet<string>): void {
  const current = byName(observed.origins);
  const desiredKeys = new Set<string>();
  for (const spec of graph.origins) {
    const k = key(spec.ref.originGroup, spec.ref.origin);
    desiredKeys.add(k);
    const have = current.get(k);
    if (spec.keep !== undefined) {
      if (have) b.kept.push({ ref: spec.ref, reason: spec.keep });
      else b.notProgrammed.push({ ref: spec.ref, reason: spec.keep });
      continue;
    }
    const body = originBody(spec);
    const weightManaged = spec.weight !== undefined;
    b.converge(spec.ref, body, comparableOrigin(body, weightManaged), have && comparableOrigin(have.arm, weightManaged), spec.provenance, have?.arm.provisioningState);
  }
  for (const [k, have] of current) {
    const group = (have.parent ?? '').toLowerCase();
    if (desiredKeys.has(k) || !liveGroups.has(group)) continue;
    const ref: AfdRef = { kind: 'origin', profile: graph.profile.ref.profile, originGroup: have.parent ?? '', origin: have.name };
    if (!withdrawn.has(group)) {
      b.remove(ref, `${describeRef(ref)} is no longer part of its group`);
    } else if (have.arm.enabledState === 'Disabled') {
      b.kept.push({ ref, reason: 'withdrawn: kept disabled until its rule gets origins again or is deleted' });
    } else {
      b.operations.push({ action: 'update', ref, body: disabledCopy(have.arm), changes: ['enabledState Enabled -> Disabled'], reason: `${describeRef(ref)} is disabled: its rule lost every origin`, provenance: [] });
    }
  }
}

/**
 * Desired against observed (pure): the writes that make ARM match the plan, and nothing when it already does.
 * Server-set fields never count as differences; resources the plan keeps are never written.
 */
export function diffFrontDoor(desired: FrontDoorGraph, observed: ObservedGraph, scope: FrontDoorScope): DiffResult {
  const { graph, keptGroups } = resolveWithdrawal(desired, observed);
  const b = new DiffBuilder();
  const profile = graph.profile.ref.profile;
  const { profile: profileSpec, endpoint } = graph;
  b.converge(profileSpec.ref, profileBody(profileSpec), comparableProfile(profileBody(profileSpec)), observed.profile && comparableProfile(observed.profile), profileSpec.provenance, observed.profile?.provisioningState);

  const topLevel = () => '';
  b.convergeAll([endpoint], observed.endpoints, topLevel, endpointBody, comparableEndpoint);
  for (const e of observed.endpoints) {
    if (e.name.toLowerCase() !== endpoint.ref.endpoint.toLowerCase()) b.remove({ kind: 'endpoint', profile, endpoint: e.name }, `endpoint ${e.name} is not planned`);
  }

  b.convergeAll(graph.originGroups, observed.originGroups, topLevel, originGroupBody, comparableOriginGroup);
  const live = new Set([...graph.originGroups.map((g) => g.ref.originGroup.toLowerCase()), ...keptGroups.map((g) => g.toLowerCase())]);
  for (const g of keptGroups) b.kept.push({ ref: { kind: 'originGroup', profile, originGroup: g }, reason: 'withdrawn: its route keeps it, with every origin disabled' });
  for (const g of observed.originGroups) {
    if (!live.has(g.name.toLowerCase())) b.remove({ kind: 'originGroup', profile, originGroup: g.name }, `origin group ${g.name} is not planned`);
  }
  const withdrawn = new Set([...graph.originGroups.filter((g) => g.withdrawn).map((g) => g.ref.originGroup.toLowerCase()), ...keptGroups.map((g) => g.toLowerCase())]);
  diffOrigins(b, graph, observed, withdrawn, live);

  const ruleSets = byName(observed.ruleSets);
  const liveRuleSets = new Set(graph.ruleSets.map((s) => s.ref.ruleSet.toLowerCase()));
  for (const spec of graph.ruleSets) {
    if (ruleSets.has(key('', spec.ref.ruleSet))) b.unchanged.push(spec.ref);
    else b.operations.push({ action: 'create', ref: spec.ref, changes: [], reason: `rule set ${spec.ref.ruleSet} does not exist`, provenance: spec.provenance });
  }
  for (const s of observed.ruleSets) {
    if (!liveRuleSets.has(s.name.toLowerCase())) b.remove({ kind: 'ruleSet', profile, ruleSet: s.name }, `rule set ${s.name} is not planned`);
  }
  b.convergeAll(graph.rules, observed.rules, (s) => s.ref.ruleSet, (s) => ruleBody(s, scope), comparableRule);
  const desiredRules = new Set(graph.rules.map((r) => key(r.ref.ruleSet, r.ref.rule)));
  for (const [k, r] of byName(observed.rules)) {
    if (!desiredRules.has(k) && liveRuleSets.has((r.parent ?? '').toLowerCase())) b.remove({ kind: 'rule', profile, ruleSet: r.parent ?? '', rule: r.name }, `rule ${r.name} is not planned`);
  }

  b.convergeAll(graph.routes, observed.routes, (s) => s.ref.endpoint, (s) => routeBody(s, scope), comparableRoute);
  const desiredRoutes = new Set(graph.routes.map((r) => key(r.ref.endpoint, r.ref.route)));
  for (const [k, r] of byName(observed.routes)) {
    if (!desiredRoutes.has(k) && (r.parent ?? '').toLowerCase() === endpoint.ref.endpoint.toLowerCase()) {
      b.remove({ kind: 'route', profile, endpoint: r.parent ?? '', route: r.name }, `route ${r.name} is not planned`);
    }
  }

  const policy = graph.securityPolicy;
  b.convergeAll(policy ? [policy] : [], observed.securityPolicies, topLevel, (s) => securityPolicyBody(s, scope), comparableSecurityPolicy);
  for (const s of observed.securityPolicies) {
    if (s.name.toLowerCase() !== policy?.ref.securityPolicy.toLowerCase()) {
      b.remove({ kind: 'securityPolicy', profile, securityPolicy: s.name }, `security policy ${s.name} is not planned (the WAF policy itself is left alone)`);
    }
  }
  return { operations: b.operations, unchanged: b.unchanged, kept: b.kept, notProgrammed: b.notProgrammed, graph };
}
