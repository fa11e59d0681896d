import { compareText } from '@fleet-gateway/api-types';
import type { CachedGateway } from './gateway-api-resources.js';
import { hasGatewayFinalizer } from './gateway-finalizer.js';

/**
 * "Maximum 500 total Standard and Premium profiles per subscription" (the Azure Front Door limits page). Each Gateway
 * is one profile, so the hub programs at most this many Gateways; a deployment may set a lower figure (other
 * profiles in the subscription, other hubs) through `AzureFrontDoorAccess.profileQuota`.
 */
export const AFD_PROFILES_PER_SUBSCRIPTION = 500;

export type ProfileQuotaVerdict = { readonly within: true } | { readonly within: false; readonly message: string };

const byAge = (a: CachedGateway, b: CachedGateway): number =>
  compareText(a.metadata.creationTimestamp ?? '\uffff', b.metadata.creationTimestamp ?? '\uffff') ||
  compareText(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
  compareText(a.metadata.name ?? '', b.metadata.name ?? '');

/**
 * Whether `gateway` may hold an AFD profile under the quota. A Gateway that holds one already (our finalizer) keeps
 * it whatever else changes; the others take the slots left, oldest first, then by namespace/name, so that a new
 * Gateway never takes the place of an older one and the answer is the same on every reconcile. Gateways being
 * deleted without a profile are not counted; every other Gateway of this controller is, accepted or not (the hub does
 * not resolve them all to know which will be), which errs on the side of writing nothing.
 */
export function profileQuotaVerdict(ours: readonly CachedGateway[], gateway: CachedGateway, quota: number): ProfileQuotaVerdict {
  if (hasGatewayFinalizer(gateway)) return { within: true };
  const holders = ours.filter(hasGatewayFinalizer).length;
  const waiting = ours.filter((g) => !hasGatewayFinalizer(g) && !g.metadata.deletionTimestamp).sort(byAge);
  const position = waiting.findIndex((g) => g.metadata.uid === gateway.metadata.uid);
  const place = holders + (position === -1 ? waiting.length : position) + 1;
  if (place <= quota) return { within: true };
  return {
    within: false,
    message:
      `the AFD profile quota of ${quota} Standard/Premium profiles per subscription is reached: ${holders} Gateways of this hub hold a profile ` +
      `and this one is number ${place} in line (oldest first); nothing is written to Azure for it until a Gateway ahead of it is deleted or the quota is raised`,
  };
}
