import { badRequest } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import type { EmulatorContext } from '../emulator-context.js';
import { parentKeyOf } from '../arm/resource-id.js';
import { AFD, afdChildKind, enforceProfileLimit, isPremium, profileOf } from './afd-common.js';
import { originHostNameProblem } from './origin-host-names.js';
import { checkOriginEnabledState, refuseLosingLastEnabledOrigin } from './origin-group-usage.js';

/**
 * Microsoft.Cdn/profiles/originGroups/origins. An origin with `sharedPrivateLinkResource` (Premium only) makes AFD
 * request a private endpoint connection on the Private Link Service; its status is reported back on the origin.
 * Public and Private Link origins cannot share an origin group. The last enabled origin of a group a route or a rule
 * uses can be neither disabled nor deleted.
 */
export const originKind = afdChildKind({
  types: ['profiles', 'originGroups', 'origins'],
  definition: 'AFDOrigin',
  updateDefinition: 'AFDOriginUpdateParameters',
  check(request, context) {
    const invalidHost = originHostNameProblem(request.body.properties.hostName);
    if (invalidHost !== undefined) throw badRequest(invalidHost);
    const limits = context.limits.afd;
    enforceProfileLimit(request, context, AFD.origin, limits.originsPerOriginGroup, 'origins per origin group', request.parent?.key);
    enforceProfileLimit(request, context, AFD.origin, limits.originsPerProfile, 'origins per profile');
    refuseMixedGroup(request, context);
    checkOriginEnabledState(request, context);
    const privateLink = request.body.properties.sharedPrivateLinkResource;
    if (privateLink === undefined) return;
    const profile = profileOf(request, context);
    if (!isPremium(profile)) {
      throw badRequest(
        `'properties.sharedPrivateLinkResource' requires the Premium_AzureFrontDoor SKU; profile '${profile.name}' is '${profile.body.sku?.name}'.`,
      );
    }
    context.privateLink.checkOrigin(request.key, profile.key, privateLink);
  },
  checkDelete(record, context) {
    if (record.body.properties.enabledState === 'Disabled') return;
    refuseLosingLastEnabledOrigin({ key: record.key, groupKey: parentKeyOf(record.key), enabledAfter: false }, context);
  },
  render(record, context) {
    const sharedPrivateLinkResource = record.body.properties.sharedPrivateLinkResource;
    if (sharedPrivateLinkResource === undefined) return {};
    // The status is AFD's to report, whatever the client sent.
    const { status: _sent, ...rest } = sharedPrivateLinkResource as Record<string, unknown>;
    const status = context.privateLink.statusOf(record.key);
    return { sharedPrivateLinkResource: { ...rest, ...(status === undefined ? {} : { status }) } };
  },
  onProvisioned(record, context) {
    context.privateLink.attach(record);
  },
  onRemoved(record, context) {
    context.privateLink.detach(record.key);
  },
});

function refuseMixedGroup(request: WriteRequest, context: EmulatorContext): void {
  const isPrivate = request.body.properties.sharedPrivateLinkResource !== undefined;
  const other = context.store
    .ofKind(AFD.origin, request.parent?.key)
    .find((origin) => origin.key !== request.key && (origin.body.properties.sharedPrivateLinkResource !== undefined) !== isPrivate);
  if (other === undefined) return;
  throw badRequest(
    `Origin group '${request.path.names[1]}' already holds ${isPrivate ? 'public' : 'Private Link'} origin '${other.name}'; ` +
      'Azure Front Door does not allow public and Private Link origins in the same origin group.',
  );
}
