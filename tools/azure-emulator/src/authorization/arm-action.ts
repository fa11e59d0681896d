import { parseResourceGroupPath } from '../arm/resource-groups.js';
import { formatArmPath, isCollection, kindKeyOf, parseArmPath, type ArmPath } from '../arm/resource-id.js';
import type { EmulatorContext } from '../emulator-context.js';

/** What ARM authorizes a request as: one action over one scope (the request's resource, or the one it concerns). */
export interface ArmAction {
  readonly action: string;
  readonly scope: string;
}

const VERBS: Record<string, string> = { GET: 'read', HEAD: 'read', PUT: 'write', PATCH: 'write', DELETE: 'delete' };

/**
 * Polling a long-running operation: Microsoft.Cdn names its results `operationresults` (the CDN roles grant
 * `Microsoft.Cdn/operationresults/*`), Microsoft.Network `locations/operations` and `locations/operationResults`.
 */
const OPERATION_ACTIONS: Record<string, Record<string, string>> = {
  'microsoft.cdn': { operationstatuses: 'Microsoft.Cdn/operationresults/read', operationresults: 'Microsoft.Cdn/operationresults/read' },
  'microsoft.network': {
    operationstatuses: 'Microsoft.Network/locations/operations/read',
    operationresults: 'Microsoft.Network/locations/operationResults/read',
  },
};

/**
 * The action and scope of an ARM request, as its path and method give them: `<provider>/<types>/read|write|delete`
 * over the resource (a list: over the list's path), a POST `<provider>/<types>/<name>/action` over the resource it
 * acts on, a resource group's `Microsoft.Resources/subscriptions/resourceGroups/...`. An operation's status is read
 * over the scope of the resource it runs on, where ARM's results for that provider live. Undefined: not an ARM path.
 */
export function armActionOf(method: string, pathname: string, context: EmulatorContext): ArmAction | undefined {
  const group = parseResourceGroupPath(pathname);
  if (group !== undefined) {
    const verb = VERBS[method] ?? 'action';
    const scope = `/subscriptions/${group.subscriptionId}${group.name === undefined ? '' : `/resourceGroups/${group.name}`}`;
    return { action: `Microsoft.Resources/subscriptions/resourceGroups/${verb}`, scope };
  }
  const path = parseArmPath(pathname);
  if (path === undefined) return undefined;
  const [first, second] = path.types.map((type) => type.toLowerCase());
  if (first === 'locations' && second !== undefined && path.names.length === 2) {
    const action = OPERATION_ACTIONS[path.provider.toLowerCase()]?.[second];
    if (action !== undefined) return { action, scope: context.operations.get(path.names[1] as string)?.resourceKey ?? formatArmPath(path) };
  }
  if (method === 'POST') return { action: `${path.provider}/${canonicalTypes(path, context).join('/')}/action`, scope: actedOn(path) };
  return { action: `${path.provider}/${canonicalTypes(path, context).join('/')}/${VERBS[method] ?? 'action'}`, scope: formatArmPath(path) };
}

/** The resource a POST acts on (its path without the action), or the resource group or subscription it is sent to. */
function actedOn(path: ArmPath): string {
  if (path.names.length > 0) return formatArmPath({ ...path, types: path.types.slice(0, path.names.length) });
  return `/subscriptions/${path.subscriptionId}${path.resourceGroup === undefined ? '' : `/resourceGroups/${path.resourceGroup}`}`;
}

/** The types as the resource kind spells them, where the emulator knows it (a POST's action name is kept as sent). */
function canonicalTypes(path: ArmPath, context: EmulatorContext): string[] {
  const types =
    isCollection(path) && path.names.length > 0 && context.kinds.find(kindKeyOf(path.provider, path.types)) === undefined
      ? path.types.slice(0, -1)
      : path.types;
  const kind = context.kinds.find(kindKeyOf(path.provider, types));
  return [...(kind?.types ?? types), ...path.types.slice(types.length)];
}
