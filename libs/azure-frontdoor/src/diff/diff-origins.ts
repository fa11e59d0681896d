import { describeRef, type AfdRef } from '../plan/afd-refs.js';
import { originBody } from './arm-bodies.js';
import { carryOrigin } from './carry-origins.js';
import { comparableOrigin } from './comparable.js';
import { byName, key, type DiffBuilder } from './diff-builder.js';
import type { ObservedGraph } from '../observe/observe.js';
import type { FrontDoorGraph, OriginSpec } from '../plan/spec-types.js';

type KeptOriginSpec = Extract<OriginSpec, { keep: string }>;

/** What becomes of the observed origin groups (lower-case names) beyond the desired ones. */
export interface GroupFates {
  /** Groups that stay: desired or frozen. */
  readonly live: ReadonlySet<string>;
  /** Groups kept exactly as observed (a frozen or held route uses them and no desired rule does), and why. */
  readonly frozen: ReadonlyMap<string, string>;
}

const lower = (name: string): string => name.toLowerCase();

/** A `keep` origin missing from its group: carried from another of our groups when its rule moved, else not created. */
function keepAbsent(b: DiffBuilder, spec: KeptOriginSpec, graph: FrontDoorGraph, observed: ObservedGraph): void {
  const group = lower(spec.ref.originGroup);
  const groupOrigins = graph.origins.filter((o) => lower(o.ref.originGroup) === group);
  const carried = carryOrigin(spec, { groupOrigins, observed: observed.origins });
  if (carried === undefined) {
    b.notProgrammed.push({ ref: spec.ref, reason: spec.keep });
    return;
  }
  const reason = `${describeRef(spec.ref)} is carried from origin group ${carried.from} as last programmed (${carried.weighting}): ${spec.keep}`;
  b.operations.push({ action: 'create', ref: spec.ref, body: carried.body, changes: [], reason, provenance: spec.provenance });
}

/**
 * Origins: desired ones converge, `keep` ones (unknown member data) stay exactly as observed, are carried from
 * another of our groups when their rule moved to a new group (`carryOrigin`), or are not created;
 * leftovers are deleted from desired groups and left alone in frozen groups (a group that goes is deleted whole).
 */
export function diffOrigins(b: DiffBuilder, graph: FrontDoorGraph, observed: ObservedGraph, groups: GroupFates): void {
  const current = byName(observed.origins);
  const desiredKeys = new Set<string>();
  for (const spec of graph.origins) {
    const k = key(spec.ref.originGroup, spec.ref.origin);
    desiredKeys.add(k);
    const have = current.get(k);
    if (spec.keep !== undefined) {
      if (have) b.keep(spec.ref, spec.keep);
      else keepAbsent(b, spec, graph, observed);
      continue;
    }
    const body = originBody(spec);
    const weightManaged = spec.weight !== undefined;
    b.converge(
      spec.ref,
      body,
      comparableOrigin(body, weightManaged),
      have && comparableOrigin(have.arm, weightManaged),
      spec.provenance,
      have?.arm.provisioningState,
    );
  }
  for (const [k, have] of current) {
    const group = lower(have.parent ?? '');
    if (desiredKeys.has(k) || !groups.live.has(group)) continue;
    const ref: AfdRef = { kind: 'origin', profile: graph.profile.ref.profile, originGroup: have.parent ?? '', origin: have.name };
    const frozen = groups.frozen.get(group);
    if (frozen !== undefined) b.keep(ref, frozen);
    else b.remove(ref, `${describeRef(ref)} is no longer part of its group`);
  }
}
