import { badRequest } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import { parentKeyOf } from '../arm/resource-id.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import { AFD, referenceKey, requireReference } from './afd-common.js';

/**
 * AFD's rules about origin groups in use (a route's `originGroup`, a rule's RouteConfigurationOverride): such a group
 * must hold an enabled origin when it is referenced, and keeps one for as long as it is referenced.
 * Messages: hashicorp/terraform-provider-azurerm#18333 and #27652 (Azure's 400 answers, quoted there).
 */
export const LAST_ORIGIN_MESSAGE =
  'Cannot disable or delete the last origin when the origin group is still associated with a route or a rule. Please disassociate the origin group and try again.';

type RuleAction = { name?: unknown; parameters?: { originGroupOverride?: { originGroup?: unknown } } };

/** The origin groups a rule's RouteConfigurationOverride actions send requests to, with the field naming each. */
export function overrideReferencesOf(properties: Record<string, unknown>): Array<{ group: unknown; field: string }> {
  const actions = (properties.actions as RuleAction[] | undefined) ?? [];
  return actions.flatMap((action, i) => {
    const group = action.name === 'RouteConfigurationOverride' ? action.parameters?.originGroupOverride?.originGroup : undefined;
    return group === undefined ? [] : [{ group, field: `properties.actions[${i}].parameters.originGroupOverride.originGroup` }];
  });
}

export function overrideGroupsOf(properties: Record<string, unknown>): unknown[] {
  return overrideReferencesOf(properties).map((reference) => reference.group);
}

/** Routes and rules of the profile whose current body references the group. */
export function referrersOf(groupKey: string, context: EmulatorContext): ResourceRecord[] {
  const profileKey = parentKeyOf(groupKey);
  const routes = context.store.ofKind(AFD.route, profileKey).filter((route) => referenceKey(route.body.properties.originGroup) === groupKey);
  const rules = context.store
    .ofKind(AFD.rule, profileKey)
    .filter((rule) => overrideGroupsOf(rule.body.properties).some((group) => referenceKey(group) === groupKey));
  return [...routes, ...rules];
}

function isEnabled(origin: ResourceRecord): boolean {
  return origin.body.properties.enabledState !== 'Disabled' && origin.provisioningState !== 'Deleting';
}

/** A route or rule write may only point at a group that has an enabled origin (#18333). */
export function requireUsableGroup(reference: unknown, field: string, request: WriteRequest, context: EmulatorContext): void {
  const group = requireReference(reference, field, AFD.originGroup, request, context);
  if (context.store.ofKind(AFD.origin, group.key).some(isEnabled)) return;
  throw badRequest(
    `Endpoint pools must contain at least one enabled endpoint: origin group '${group.name}' ('${field}') has no enabled origin. ` +
      'Please make sure that the originGroup is created successfully and at least one enabled origin is created under the origin group.',
  );
}

/** Refuses a write or delete that would leave a referenced group without an enabled origin (#27652). */
export function refuseLosingLastEnabledOrigin(origin: { key: string; groupKey: string; enabledAfter: boolean }, context: EmulatorContext): void {
  if (origin.enabledAfter) return;
  const others = context.store.ofKind(AFD.origin, origin.groupKey).filter((o) => o.key !== origin.key && isEnabled(o));
  if (others.length > 0) return;
  const referrers = referrersOf(origin.groupKey, context);
  if (referrers.length === 0) return;
  const named = referrers.map((r) => `${r.kindKey.split('/').pop()} '${r.name}'`).join(', ');
  throw badRequest(`${LAST_ORIGIN_MESSAGE} (origin group '${context.store.get(origin.groupKey)?.name}' is used by ${named}.)`);
}

/** Origin PUT/PATCH: disabling the group's last enabled origin is refused while the group is referenced. */
export function checkOriginEnabledState(request: WriteRequest, context: EmulatorContext): void {
  // An origin that is disabled already changes nothing about the group's enabled origins.
  if (request.existing !== undefined && !isEnabled(request.existing)) return;
  const enabledAfter = request.body.properties.enabledState !== 'Disabled';
  refuseLosingLastEnabledOrigin({ key: request.key, groupKey: parentKeyOf(request.key), enabledAfter }, context);
}
