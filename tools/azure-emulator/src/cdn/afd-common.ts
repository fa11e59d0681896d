import { badRequest, conflict } from '../arm/errors.js';
import type { ResourceKind, WriteRequest } from '../arm/kind.js';
import { formatArmPath, resourceKey, type ArmPath } from '../arm/resource-id.js';
import type { ResourceRecord } from '../arm/store.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { PerSku } from '../limits.js';

export const CDN_API_VERSION = '2024-02-01';
export const AFD_SKUS = ['Standard_AzureFrontDoor', 'Premium_AzureFrontDoor'] as const;
const SPEC = 'cdn/2024-02-01/afdx.json';

/** Kind keys of the AFD resources (lower-cased type chains). */
export const AFD = {
  profile: 'microsoft.cdn/profiles',
  endpoint: 'microsoft.cdn/profiles/afdendpoints',
  route: 'microsoft.cdn/profiles/afdendpoints/routes',
  originGroup: 'microsoft.cdn/profiles/origingroups',
  origin: 'microsoft.cdn/profiles/origingroups/origins',
  ruleSet: 'microsoft.cdn/profiles/rulesets',
  rule: 'microsoft.cdn/profiles/rulesets/rules',
  securityPolicy: 'microsoft.cdn/profiles/securitypolicies',
  customDomain: 'microsoft.cdn/profiles/customdomains',
  secret: 'microsoft.cdn/profiles/secrets',
} as const;

type AfdChildSpec = Pick<ResourceKind, 'types'> & Partial<ResourceKind> & { definition: string; updateDefinition?: string };

/** The read-only property every AFD child reports its parent's name in (afdx.json: profileName, endpointName...). */
const PARENT_NAME_PROPERTY: Readonly<Record<string, string>> = {
  profiles: 'profileName',
  afdEndpoints: 'endpointName',
  originGroups: 'originGroupName',
  ruleSets: 'ruleSetName',
};

/**
 * An AFD child resource as afdx.json defines most of them: proxy resource, PUT/PATCH/DELETE long-running, its parent's
 * name among the rendered properties.
 */
export function afdChildKind(spec: AfdChildSpec): ResourceKind {
  const { definition, updateDefinition, render, ...rest } = spec;
  const parentNameProperty = PARENT_NAME_PROPERTY[spec.types[spec.types.length - 2] as string] as string;
  return {
    provider: 'Microsoft.Cdn',
    apiVersions: [CDN_API_VERSION],
    tracked: false,
    putSchema: `${SPEC}#${definition}`,
    ...(updateDefinition === undefined ? {} : { patchSchema: `${SPEC}#${updateDefinition}` as const }),
    lro: { put: true, patch: true, delete: true },
    deletable: true,
    hasDeploymentStatus: true,
    ...rest,
    render: (record, context) => ({ [parentNameProperty]: record.path.names[record.path.names.length - 2], ...render?.(record, context) }),
  };
}

export function profileKeyOf(path: ArmPath): string {
  return resourceKey(formatArmPath({ ...path, types: path.types.slice(0, 1), names: path.names.slice(0, 1) }));
}

/** The profile a write belongs to (it exists: the generic handler checked the parents). */
export function profileOf(request: WriteRequest, context: EmulatorContext): ResourceRecord {
  return context.store.get(profileKeyOf(request.path)) as ResourceRecord;
}

export function isPremium(profile: ResourceRecord): boolean {
  return profile.body.sku?.name === 'Premium_AzureFrontDoor';
}

export function limitFor(limit: PerSku, profile: ResourceRecord): number {
  return isPremium(profile) ? limit.premium : limit.standard;
}

/** Refuses creating one more child of a kind in the profile when the SKU's limit is reached. */
export function enforceProfileLimit(request: WriteRequest, context: EmulatorContext, kindKey: string, limit: PerSku, what: string, underKey?: string): void {
  if (request.existing !== undefined) return;
  const profile = profileOf(request, context);
  const max = limitFor(limit, profile);
  const count = context.store.ofKind(kindKey, underKey ?? profile.key).length;
  if (count >= max) {
    throw badRequest(`Limit reached: ${what} cannot exceed ${max} for SKU '${profile.body.sku?.name}' (profile '${profile.name}' has ${count}).`);
  }
}

/** The key of a `{ id }` reference, or undefined when the member is absent. */
export function referenceKey(reference: unknown): string | undefined {
  const id = (reference as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? resourceKey(id) : undefined;
}

/** Resolves a reference that must point at an existing resource of a kind inside the same profile. */
export function requireReference(reference: unknown, field: string, kindKey: string, request: WriteRequest, context: EmulatorContext): ResourceRecord {
  const key = referenceKey(reference);
  const profileKey = profileKeyOf(request.path);
  const target = key === undefined ? undefined : context.store.get(key);
  if (target === undefined || target.kindKey !== kindKey || !target.key.startsWith(`${profileKey}/`)) {
    const id = (reference as { id?: unknown } | undefined)?.id;
    throw badRequest(
      `'${field}' must reference an existing ${kindKey.split('/').pop()} in profile '${request.path.names[0]}'; got ${JSON.stringify(id ?? null)}.`,
    );
  }
  return target;
}

export function propertiesOf(record: ResourceRecord | undefined, applied = false): Record<string, unknown> {
  const body = applied ? record?.applied : record?.body;
  return body?.properties ?? {};
}

/** Refuses deleting a resource that resources of another kind in the profile still reference. */
export function refuseDeleteWhileReferenced(
  record: ResourceRecord,
  context: EmulatorContext,
  referrerKind: string,
  referencesOf: (properties: Record<string, unknown>) => unknown[],
): void {
  const profileKey = profileKeyOf(record.path);
  const referrers = context.store
    .ofKind(referrerKind, profileKey)
    .filter((referrer) => referencesOf(referrer.body.properties).some((reference) => referenceKey(reference) === record.key));
  if (referrers.length === 0) return;
  throw conflict(
    `'${record.name}' cannot be deleted while ${referrerKind.split('/').pop()} ${referrers.map((r) => `'${r.name}'`).join(', ')} reference it; ` +
      'remove those references first.',
  );
}
