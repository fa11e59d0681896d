import { nameFromId, type AfdRef, type FrontDoorScope } from '../plan/afd-refs.js';
import { customDomainBody, endpointBody, originGroupBody, profileBody, routeBody, ruleBody, securityPolicyBody } from './arm-bodies.js';
import {
  comparableCustomDomain,
  comparableEndpoint,
  comparableOriginGroup,
  comparableProfile,
  comparableRoute,
  comparableRule,
  comparableSecurityPolicy,
} from './comparable.js';
import { byName, DiffBuilder, key, type Note } from './diff-builder.js';
import { diffOrigins } from './diff-origins.js';
import type { ObservedGraph } from '../observe/observe.js';
import type { Operation } from './operations.js';
import { frozenDependencies, resolveRouteClaims, routeWaves, type Kept, type RouteClaims } from './route-claims.js';
import type { FrontDoorGraph } from '../plan/spec-types.js';
import { resolveWithdrawal } from './withdrawal.js';

export type { Note } from './diff-builder.js';

export interface DiffResult {
  readonly operations: readonly Operation[];
  /** Desired resources that already match. */
  readonly unchanged: readonly AfdRef[];
  /** Resources left exactly as they are on purpose (unknown member data, held routing). */
  readonly kept: readonly Note[];
  /** Desired resources that cannot be programmed yet, and why (nothing is written for them). */
  readonly notProgrammed: readonly Note[];
  /** The desired graph as it will be written: routes under the names they take over, withdrawn routes on the sink. */
  readonly graph: FrontDoorGraph;
}

const lower = (name: string): string => name.toLowerCase();

function diffGroups(b: DiffBuilder, graph: FrontDoorGraph, observed: ObservedGraph, frozen: Kept): void {
  const profile = graph.profile.ref.profile;
  b.convergeAll(graph.originGroups, observed.originGroups, () => '', originGroupBody, comparableOriginGroup);
  const desired = new Set(graph.originGroups.map((g) => lower(g.ref.originGroup)));
  // A group a valid rule still uses follows that rule; only groups nothing else wants are frozen as they are.
  const present = new Set(observed.originGroups.map((g) => lower(g.name)));
  const frozenOnly = new Map<string, string>();
  for (const [k, { name, cause }] of frozen) {
    if (!present.has(k) || desired.has(k)) continue;
    frozenOnly.set(k, cause);
    b.keep({ kind: 'originGroup', profile, originGroup: name }, cause);
  }
  const live = new Set([...desired, ...frozenOnly.keys()]);
  for (const g of observed.originGroups) {
    if (!live.has(lower(g.name))) b.remove({ kind: 'originGroup', profile, originGroup: g.name }, `origin group ${g.name} is not planned`);
  }
  diffOrigins(b, graph, observed, { live, frozen: frozenOnly });
}

function diffRuleSets(b: DiffBuilder, graph: FrontDoorGraph, observed: ObservedGraph, scope: FrontDoorScope, frozen: Kept): void {
  const profile = graph.profile.ref.profile;
  const current = byName(observed.ruleSets);
  const desired = new Set(graph.ruleSets.map((s) => lower(s.ref.ruleSet)));
  for (const spec of graph.ruleSets) {
    if (current.has(key('', spec.ref.ruleSet))) b.unchanged.push(spec.ref);
    else
      b.operations.push({ action: 'create', ref: spec.ref, changes: [], reason: `rule set ${spec.ref.ruleSet} does not exist`, provenance: spec.provenance });
  }
  for (const s of observed.ruleSets) {
    if (desired.has(lower(s.name))) continue;
    const kept = frozen.get(lower(s.name));
    if (kept) b.keep({ kind: 'ruleSet', profile, ruleSet: s.name }, kept.cause);
    else b.remove({ kind: 'ruleSet', profile, ruleSet: s.name }, `rule set ${s.name} is not planned`);
  }
  b.convergeAll(
    graph.rules,
    observed.rules,
    (s) => s.ref.ruleSet,
    (s) => ruleBody(s, scope),
    comparableRule,
  );
  const desiredRules = new Set(graph.rules.map((r) => key(r.ref.ruleSet, r.ref.rule)));
  for (const [k, r] of byName(observed.rules)) {
    if (desiredRules.has(k)) continue;
    const parent = r.parent ?? '';
    const ref: AfdRef = { kind: 'rule', profile, ruleSet: parent, rule: r.name };
    const kept = frozen.get(lower(parent));
    if (desired.has(lower(parent))) b.remove(ref, `rule ${r.name} is not planned`);
    else if (kept) b.keep(ref, kept.cause);
  }
}

/**
 * Custom domains converge to the plan; one no longer planned is deleted (after the routes and the security policy
 * that name it let go), unless a route kept as last programmed still serves it.
 */
function diffCustomDomains(b: DiffBuilder, graph: FrontDoorGraph, observed: ObservedGraph, claims: RouteClaims): void {
  const profile = graph.profile.ref.profile;
  b.convergeAll(graph.customDomains, observed.customDomains, () => '', customDomainBody, comparableCustomDomain);
  const desired = new Set(graph.customDomains.map((d) => lower(d.ref.customDomain)));
  const keptBy = new Map<string, string>();
  for (const route of observed.routes) {
    const frozen = claims.frozen.get(lower(route.name));
    if (!frozen) continue;
    for (const domain of route.arm.customDomains ?? []) keptBy.set(lower(nameFromId(domain.id) ?? ''), `kept: route ${route.name} serves it, ${frozen.cause}`);
  }
  for (const d of observed.customDomains) {
    if (desired.has(lower(d.name))) continue;
    const ref: AfdRef = { kind: 'customDomain', profile, customDomain: d.name };
    const kept = keptBy.get(lower(d.name));
    if (kept) b.keep(ref, kept);
    else b.remove(ref, `custom domain ${d.name} (${d.arm.hostName ?? '?'}) is not planned: no route of the Gateway serves that hostname any more`);
  }
}

function diffRoutes(b: DiffBuilder, graph: FrontDoorGraph, observed: ObservedGraph, scope: FrontDoorScope, claims: RouteClaims): void {
  const { profile } = graph.profile.ref;
  const endpoint = graph.endpoint.ref.endpoint;
  b.convergeAll(
    graph.routes,
    observed.routes,
    (s) => s.ref.endpoint,
    (s) => routeBody(s, scope),
    comparableRoute,
  );
  for (const { route, cause } of claims.blocked) b.notProgrammed.push({ ref: route.ref, reason: cause });
  const desired = new Set(graph.routes.map((r) => key(r.ref.endpoint, r.ref.route)));
  for (const [k, r] of byName(observed.routes)) {
    if (desired.has(k) || lower(r.parent ?? '') !== lower(endpoint)) continue;
    const ref: AfdRef = { kind: 'route', profile, endpoint: r.parent ?? '', route: r.name };
    const frozen = claims.frozen.get(lower(r.name));
    if (frozen) b.keep(ref, frozen.cause);
    else b.remove(ref, `route ${r.name} is not planned`);
  }
}

/**
 * Route writes that give up or take over (pattern, protocol)s run in waves; a route delete that frees one runs with
 * them. A route that hands over is written twice: first with only the patterns it keeps (wave 0), then as planned.
 */
function ordered(operations: readonly Operation[], claims: RouteClaims): Operation[] {
  const waves = routeWaves(claims.waitsFor, claims.handovers);
  return operations.flatMap((op) => {
    const wave = op.ref.kind === 'route' ? waves.get(lower(op.ref.route)) : undefined;
    if (wave === undefined) return [op];
    const kept = op.ref.kind === 'route' && op.action === 'update' ? claims.handovers.get(lower(op.ref.route)) : undefined;
    const handover: Operation[] = kept
      ? [
          {
            ...op,
            body: { ...op.body, patternsToMatch: [...kept] },
            changes: [`patternsToMatch -> ${kept.join(', ')} (hand-over)`],
            reason: `gives up the patterns other routes take first: ${op.reason}`,
            wave: 0,
          },
        ]
      : [];
    return [...handover, { ...op, wave }];
  });
}

/**
 * Desired against observed (pure): the writes that make ARM match the plan, and nothing when it already does.
 * Server-set fields never count as differences; resources the plan keeps (unknown member data,
 * routing held while a rule is in error) are never written.
 */
export function diffFrontDoor(desired: FrontDoorGraph, observed: ObservedGraph, scope: FrontDoorScope): DiffResult {
  const endpointKey = lower(desired.endpoint.ref.endpoint);
  const ourRoutes = observed.routes.filter((r) => lower(r.parent ?? '') === endpointKey);
  const claims = resolveRouteClaims(desired.routes, desired.held, ourRoutes);
  const { graph, heldGroups } = resolveWithdrawal({ ...desired, routes: claims.routes }, observed);
  const frozen = frozenDependencies(
    ourRoutes.filter((r) => claims.frozen.has(lower(r.name))),
    observed.rules,
  );
  const b = new DiffBuilder();
  const { profile: profileSpec, endpoint } = graph;
  const profile = profileSpec.ref.profile;
  const wantProfile = profileBody(profileSpec);
  b.converge(
    profileSpec.ref,
    wantProfile,
    comparableProfile(wantProfile),
    observed.profile && comparableProfile(observed.profile),
    profileSpec.provenance,
    observed.profile?.provisioningState,
  );
  b.convergeAll([endpoint], observed.endpoints, () => '', endpointBody, comparableEndpoint);
  for (const e of observed.endpoints) {
    if (lower(e.name) !== endpointKey) b.remove({ kind: 'endpoint', profile, endpoint: e.name }, `endpoint ${e.name} is not planned`);
  }
  diffCustomDomains(b, graph, observed, claims);
  diffGroups(b, graph, observed, new Map([...heldGroups, ...frozen.groups]));
  diffRuleSets(b, graph, observed, scope, frozen.ruleSets);
  diffRoutes(b, graph, observed, scope, claims);
  const policy = graph.securityPolicy;
  b.convergeAll(
    policy ? [policy] : [],
    observed.securityPolicies,
    () => '',
    (s) => securityPolicyBody(s, scope),
    comparableSecurityPolicy,
  );
  for (const s of observed.securityPolicies) {
    if (lower(s.name) !== lower(policy?.ref.securityPolicy ?? '')) {
      b.remove({ kind: 'securityPolicy', profile, securityPolicy: s.name }, `security policy ${s.name} is not planned (the WAF policy itself is left alone)`);
    }
  }
  return { operations: ordered(b.operations, claims), unchanged: b.unchanged, kept: b.kept, notProgrammed: b.notProgrammed, graph };
}
