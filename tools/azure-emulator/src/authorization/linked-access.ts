import { isJsonObject } from '../arm/json.js';
import type { ArmPath } from '../arm/resource-id.js';
import type { ArmAction } from './arm-action.js';

/**
 * The other resources a write names that ARM checks the caller's access to as well (its linked access check,
 * `LinkedAuthorizationFailed`): a Front Door origin's Private Link Service must be readable by whoever writes the
 * origin (ledger A66: believed, not documented).
 */
export function linkedActionsOf(method: string, path: ArmPath | undefined, body: unknown): ArmAction[] {
  if (path === undefined || (method !== 'PUT' && method !== 'PATCH') || path.provider.toLowerCase() !== 'microsoft.cdn') return [];
  const types = path.types.map((type) => type.toLowerCase()).join('/');
  if (types !== 'profiles/origingroups/origins' || path.names.length !== 3 || !isJsonObject(body)) return [];
  const properties = body.properties;
  const shared = isJsonObject(properties) ? properties.sharedPrivateLinkResource : undefined;
  const privateLink = isJsonObject(shared) ? shared.privateLink : undefined;
  const id = isJsonObject(privateLink) ? privateLink.id : undefined;
  return typeof id === 'string' && id !== '' ? [{ action: 'Microsoft.Network/privateLinkServices/read', scope: id }] : [];
}
