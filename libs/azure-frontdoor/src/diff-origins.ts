import type { AFDOrigin } from '@azure/arm-cdn';
import { describeRef, type AfdRef } from './afd-refs.js';
import { originBody } from './arm-bodies.js';
import { comparableOrigin } from './comparable.js';
import { byName, key, type DiffBuilder } from './diff-builder.js';
import type { ObservedGraph } from './observe.js';
import type { FrontDoorGraph } from './spec-types.js';

/** What becomes of the observed origin groups (lower-case names) beyond the desired ones. */
export interface GroupFates {
  /** Groups that stay: desired, kept by a withdrawn route, or frozen. */
  readonly live: ReadonlySet<string>;
  /** Groups whose rule lost every origin: leftover origins are disabled, not deleted. */
  readonly withdrawn: ReadonlySet<string>;
  /** Groups kept exactly as observed (a frozen route uses them and no desired rule does), and why. */
  readonly frozen: ReadonlyMap<string, string>;
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

/**
 * Origins: desired ones converge, `keep` ones (unknown member data) stay exactly as observed or are not created;
 * leftovers are deleted from live groups, disabled in withdrawn groups and left alone in frozen groups.
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
      else b.notProgrammed.push({ ref: spec.ref, reason: spec.keep });
      continue;
    }
    const body = originBody(spec);
    const weightManaged = spec.weight !== undefined;
    b.converge(spec.ref, body, comparableOrigin(body, weightManaged), have && comparableOrigin(have.arm, weightManaged), spec.provenance, have?.arm.provisioningState);
  }
  for (const [k, have] of current) {
    const group = (have.parent ?? '').toLowerCase();
    if (desiredKeys.has(k) || !groups.live.has(group)) continue;
    const ref: AfdRef = { kind: 'origin', profile: graph.profile.ref.profile, originGroup: have.parent ?? '', origin: have.name };
    const frozen = groups.frozen.get(group);
    if (frozen !== undefined) {
      b.keep(ref, frozen);
    } else if (!groups.withdrawn.has(group)) {
      b.remove(ref, `${describeRef(ref)} is no longer part of its group`);
    } else if (have.arm.enabledState === 'Disabled') {
      b.keep(ref, 'withdrawn: kept disabled until its rule gets origins again or is deleted');
    } else {
      b.operations.push({ action: 'update', ref, body: disabledCopy(have.arm), changes: ['enabledState Enabled -> Disabled'], reason: `${describeRef(ref)} is disabled: its rule lost every origin`, provenance: [] });
    }
  }
}
