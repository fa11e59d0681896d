import type { AFDOrigin } from '@azure/arm-cdn';
import { MAX_ORIGIN_WEIGHT } from '@fleet-gateway/model';
import { compareText } from '../plan/canonical.js';
import type { Observed } from '../observe/observe.js';
import type { OriginSpec, ProgrammableOriginSpec } from '../plan/spec-types.js';

/** The writable fields of an observed origin: what a copy of it must send so that it serves as it does now. */
export function writableCopy(origin: AFDOrigin): AFDOrigin {
  const {
    hostName,
    httpPort,
    httpsPort,
    originHostHeader,
    priority,
    weight,
    enabledState,
    enforceCertificateNameCheck,
    azureOrigin,
    sharedPrivateLinkResource,
  } = origin;
  const pl = sharedPrivateLinkResource;
  return {
    hostName,
    httpPort,
    httpsPort,
    ...(originHostHeader ? { originHostHeader } : {}),
    priority,
    weight,
    enabledState,
    enforceCertificateNameCheck,
    ...(azureOrigin ? { azureOrigin } : {}),
    ...(pl
      ? {
          sharedPrivateLinkResource: {
            privateLink: pl.privateLink,
            privateLinkLocation: pl.privateLinkLocation,
            requestMessage: pl.requestMessage,
            groupId: pl.groupId,
          },
        }
      : {}),
  };
}

export interface CarriedOrigin {
  readonly body: AFDOrigin;
  /** The observed origin group the copy comes from. */
  readonly from: string;
  /** How its weight was chosen. */
  readonly weighting: string;
}

interface CarryContext {
  /** Every origin the desired graph has in the target group. */
  readonly groupOrigins: readonly OriginSpec[];
  /** Every origin observed in the profile (any of our groups). */
  readonly observed: readonly Observed<AFDOrigin>[];
}

const lower = (name: string): string => name.toLowerCase();
const enabledWeight = (arm: AFDOrigin): number | undefined =>
  arm.enabledState !== 'Disabled' && arm.weight !== undefined && arm.weight > 0 ? arm.weight : undefined;

/**
 * Known origins of the same backend that are enabled in the target group and were enabled, weighted, beside the
 * carried origin in its source group: they fix the scale between the source group's weights and the new split's.
 */
function referenceSiblings(unknown: OriginSpec, groupOrigins: readonly OriginSpec[], sourceGroup: ReadonlyMap<string, AFDOrigin>) {
  return groupOrigins.flatMap((o) => {
    if (o.keep !== undefined || o.backend !== unknown.backend || o.weight === undefined || o.enabledState !== 'Enabled') return [];
    const before = sourceGroup.get(lower(o.ref.origin));
    const beforeWeight = before && enabledWeight(before);
    return beforeWeight === undefined ? [] : [{ spec: o as ProgrammableOriginSpec & { weight: number }, beforeWeight }];
  });
}

/**
 * Fail-static across a change of origin group: an origin the plan must keep (member data unknown) that does not
 * exist in its new group yet is copied from the same backend x cluster origin observed in another of our groups, so
 * it keeps serving as last programmed. Its weight is rescaled onto the new split through its known siblings (see
 * the README); without one it keeps the weight it had. Nothing observed for it: undefined (it stays absent).
 */
export function carryOrigin(unknown: OriginSpec, context: CarryContext): CarriedOrigin | undefined {
  const target = lower(unknown.ref.originGroup);
  const copies = context.observed.filter((o) => lower(o.name) === lower(unknown.ref.origin) && lower(o.parent ?? '') !== target && o.arm.hostName);
  if (copies.length === 0) return undefined;
  const candidates = copies.map((copy) => {
    const sourceGroup = new Map(context.observed.filter((o) => lower(o.parent ?? '') === lower(copy.parent ?? '')).map((o) => [lower(o.name), o.arm]));
    return { copy, siblings: referenceSiblings(unknown, context.groupOrigins, sourceGroup) };
  });
  // The same cluster observed in several groups: prefer a copy whose scale the new split can be related to, then the first group by name.
  candidates.sort(
    (a, b) => Number(b.siblings.length > 0) - Number(a.siblings.length > 0) || compareText(lower(a.copy.parent ?? ''), lower(b.copy.parent ?? '')),
  );
  const { copy, siblings } = candidates[0] as (typeof candidates)[number];
  const from = copy.parent ?? '';
  const body = writableCopy(copy.arm);
  const before = enabledWeight(copy.arm);
  if (before === undefined) return { body, from, weighting: 'disabled, as it was' };
  if (siblings.length === 0) return { body, from, weighting: `weight ${before} as it was; no known origin of ${unknown.backend} relates it to the new split` };
  const now = siblings.reduce((sum, s) => sum + s.spec.weight, 0);
  const then = siblings.reduce((sum, s) => sum + s.beforeWeight, 0);
  const weight = Math.min(MAX_ORIGIN_WEIGHT, Math.max(1, Math.round((before * now) / then)));
  const names = siblings.map((s) => s.spec.cluster).join(', ');
  return { body: { ...body, weight }, from, weighting: `weight ${before} -> ${weight}, keeping its ratio to ${names} of ${unknown.backend}` };
}
