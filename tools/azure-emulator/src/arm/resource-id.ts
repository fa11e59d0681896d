/**
 * ARM resource paths: /subscriptions/{s}/resourceGroups/{rg}/providers/{ns}/{type}/{name}[/{type}/{name}...].
 * Names and types are case-insensitive in ARM, so every lookup goes through `resourceKey`.
 */
export interface ArmPath {
  subscriptionId: string;
  /** Absent for subscription-scoped collections such as /subscriptions/{s}/providers/Microsoft.Cdn/profiles. */
  resourceGroup?: string;
  provider: string;
  types: string[];
  /** One name per type for a resource; one fewer for a collection. */
  names: string[];
}

export function isCollection(path: ArmPath): boolean {
  return path.names.length < path.types.length;
}

export function parseArmPath(pathname: string): ArmPath | undefined {
  const parts = pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decodeSegment);
  if (parts.length < 4 || parts[0]?.toLowerCase() !== 'subscriptions') return undefined;
  const subscriptionId = parts[1] as string;
  let index = 2;
  let resourceGroup: string | undefined;
  if (parts[index]?.toLowerCase() === 'resourcegroups') {
    resourceGroup = parts[index + 1];
    if (resourceGroup === undefined) return undefined;
    index += 2;
  }
  if (parts[index]?.toLowerCase() !== 'providers' || parts[index + 1] === undefined) return undefined;
  const provider = parts[index + 1] as string;
  const rest = parts.slice(index + 2);
  if (rest.length === 0) return undefined;
  const types = rest.filter((_, i) => i % 2 === 0);
  const names = rest.filter((_, i) => i % 2 === 1);
  if (resourceGroup === undefined && names.length > 0 && types[0]?.toLowerCase() !== 'locations') return undefined;
  return { subscriptionId, resourceGroup, provider, types, names };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function formatArmPath(path: ArmPath): string {
  const scope =
    path.resourceGroup === undefined ? `/subscriptions/${path.subscriptionId}` : `/subscriptions/${path.subscriptionId}/resourceGroups/${path.resourceGroup}`;
  const tail = path.types.flatMap((type, i) => (path.names[i] === undefined ? [type] : [type, path.names[i]]));
  return `${scope}/providers/${path.provider}/${tail.join('/')}`;
}

/** The identity of a resource as ARM compares it: case-insensitive. */
export function resourceKey(id: string): string {
  return id.toLowerCase().replace(/\/+$/, '');
}

/** The registry key of a resource kind, e.g. `microsoft.cdn/profiles/origingroups/origins`. */
export function kindKeyOf(provider: string, types: readonly string[]): string {
  return [provider, ...types].join('/').toLowerCase();
}

/** The key of a nested resource's parent: its key without the last type/name pair. */
export function parentKeyOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/', key.lastIndexOf('/') - 1));
}

/** The id of the parent resource, or undefined for a top-level resource. */
export function parentPath(path: ArmPath): ArmPath | undefined {
  if (path.types.length < 2) return undefined;
  const depth = path.types.length - 1;
  return { ...path, types: path.types.slice(0, depth), names: path.names.slice(0, depth) };
}
