import { randomUUID } from 'node:crypto';
import { ArmError, badRequest } from '../arm/errors.js';
import type { ResourceKind } from '../arm/kind.js';
import { AFD, AFD_SKUS, CDN_API_VERSION } from './afd-common.js';

/**
 * Microsoft.Cdn/profiles (cdn.json Profiles_*), limited to the AFD Standard/Premium SKUs.
 * The SKU is immutable: ProfileUpdateParameters has no `sku`, and a PUT that changes it is refused
 * (moving Standard -> Premium is the separate AFDProfiles_Upgrade action).
 */
const DEFAULT_ORIGIN_RESPONSE_TIMEOUT_SECONDS = 30;

export const profileKind: ResourceKind = {
  provider: 'Microsoft.Cdn',
  types: ['profiles'],
  apiVersions: [CDN_API_VERSION],
  tracked: true,
  putSchema: 'cdn/2024-02-01/cdn.json#Profile',
  patchSchema: 'cdn/2024-02-01/cdn.json#ProfileUpdateParameters',
  lro: { put: true, patch: true, delete: true },
  deletable: true,
  check(request, context) {
    const sku = request.body.sku?.name;
    if (!(AFD_SKUS as readonly (string | undefined)[]).includes(sku)) {
      throw badRequest(`'sku.name' must be one of ${AFD_SKUS.join(', ')} (Azure Front Door Standard/Premium); got '${sku}'.`);
    }
    const previousSku = request.existing?.body.sku?.name;
    if (previousSku !== undefined && previousSku !== sku) {
      throw badRequest(
        `The SKU of profile '${request.existing?.name}' cannot be changed from '${previousSku}' to '${sku}'; ` +
          'a Standard profile moves to Premium only through the profile upgrade operation.',
      );
    }
    const location = String(request.body.location);
    if (location.toLowerCase() !== 'global') {
      throw new ArmError(
        400,
        'LocationNotAvailableForResourceType',
        `The provided location '${location}' is not available for resource type 'Microsoft.Cdn/profiles'. List of available regions for the resource type is 'global'.`,
      );
    }
    const timeout = request.body.properties.originResponseTimeoutSeconds;
    const maxTimeout = context.limits.afd.originResponseTimeoutSecondsMax;
    if (typeof timeout === 'number' && timeout > maxTimeout) {
      throw badRequest(`'properties.originResponseTimeoutSeconds' must be between 16 and ${maxTimeout}; got ${timeout}.`);
    }
    if (request.existing === undefined) {
      const count = context.store.inSubscription(AFD.profile, request.path.subscriptionId).length;
      if (count >= context.limits.afd.profilesPerSubscription) {
        throw badRequest(`Limit reached: a subscription can hold at most ${context.limits.afd.profilesPerSubscription} Azure Front Door profiles.`);
      }
    }
  },
  prepare(record) {
    record.internal.frontDoorId ??= randomUUID();
    record.body.kind = 'frontdoor';
  },
  render(record) {
    return {
      // Azure fills the response timeout in when the client leaves it out.
      originResponseTimeoutSeconds: record.body.properties.originResponseTimeoutSeconds ?? DEFAULT_ORIGIN_RESPONSE_TIMEOUT_SECONDS,
      frontDoorId: record.internal.frontDoorId,
      resourceState: record.provisioningState === 'Deleting' ? 'Deleting' : record.provisioningState === 'Creating' ? 'Creating' : 'Active',
      extendedProperties: {},
    };
  },
};
