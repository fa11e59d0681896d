import { ArmError, badRequest } from './errors.js';
import type { ArmResponse } from './http.js';
import { isJsonObject } from './json.js';
import { resourceKey } from './resource-id.js';

export interface ResourceGroup {
  readonly id: string;
  readonly name: string;
  readonly subscriptionId: string;
  location: string;
  tags: Record<string, string>;
}

/** `/subscriptions/{s}/resourcegroups[/{rg}]`: Microsoft.Resources' resource group paths (no provider segment). */
const GROUP_PATH = /^\/subscriptions\/([^/]+)\/resourcegroups(?:\/([^/]+))?\/?$/i;

export function parseResourceGroupPath(pathname: string): { subscriptionId: string; name?: string } | undefined {
  const match = GROUP_PATH.exec(pathname);
  if (match === null) return undefined;
  return { subscriptionId: decodeURIComponent(match[1] as string), ...(match[2] === undefined ? {} : { name: decodeURIComponent(match[2]) }) };
}

export function resourceGroupNotFound(name: string): ArmError {
  return new ArmError(404, 'ResourceGroupNotFound', `Resource group '${name}' could not be found.`);
}

const NAME = /^[-\w._()]{1,90}$/u;

/**
 * Resource groups, which must exist before anything is created in them (ARM answers 404 ResourceGroupNotFound).
 * Created through ARM (`PUT /subscriptions/{s}/resourcegroups/{rg}`, as `az group create` does) or the admin API.
 */
export class ResourceGroups {
  private readonly groups = new Map<string, ResourceGroup>();

  has(subscriptionId: string, name: string): boolean {
    return this.groups.has(keyOf(subscriptionId, name));
  }

  /** Creates the group, or updates its tags; the first casing of the name is kept, as ARM keeps it. */
  put(subscriptionId: string, name: string, location: string, tags: Record<string, string> = {}): { group: ResourceGroup; created: boolean } {
    if (!NAME.test(name) || name.endsWith('.')) {
      throw badRequest(`Resource group name '${name}' is invalid: 1-90 letters, digits, '-', '_', '.', '(' or ')', not ending in '.'.`, 'InvalidResourceGroup');
    }
    const key = keyOf(subscriptionId, name);
    const existing = this.groups.get(key);
    if (existing !== undefined) {
      if (existing.location.toLowerCase() !== location.toLowerCase()) {
        throw new ArmError(
          409,
          'InvalidResourceGroupLocation',
          `Invalid resource group location '${location}'. The Resource group already exists in location '${existing.location}'.`,
        );
      }
      existing.tags = { ...tags };
      return { group: existing, created: false };
    }
    const group: ResourceGroup = { id: `/subscriptions/${subscriptionId}/resourceGroups/${name}`, name, subscriptionId, location, tags: { ...tags } };
    this.groups.set(key, group);
    return { group, created: true };
  }

  get(subscriptionId: string, name: string): ResourceGroup | undefined {
    return this.groups.get(keyOf(subscriptionId, name));
  }

  remove(subscriptionId: string, name: string): boolean {
    return this.groups.delete(keyOf(subscriptionId, name));
  }

  inSubscription(subscriptionId: string): ResourceGroup[] {
    return [...this.groups.values()].filter((g) => g.subscriptionId.toLowerCase() === subscriptionId.toLowerCase());
  }
}

function keyOf(subscriptionId: string, name: string): string {
  return resourceKey(`/subscriptions/${subscriptionId}/resourcegroups/${name}`);
}

export function resourceGroupDocument(group: ResourceGroup): Record<string, unknown> {
  return {
    id: group.id,
    name: group.name,
    type: 'Microsoft.Resources/resourceGroups',
    location: group.location,
    tags: group.tags,
    properties: { provisioningState: 'Succeeded' },
  };
}

/**
 * GET/PUT/DELETE/HEAD of one group and GET of the list. DELETE removes the group and everything in it (`removeAll`),
 * answered 200 at once (ARM runs it as a long-running operation; nothing here depends on its duration).
 */
export function handleResourceGroupRequest(
  method: string,
  path: { subscriptionId: string; name?: string },
  body: unknown,
  groups: ResourceGroups,
  removeAll: (subscriptionId: string, name: string) => void,
): ArmResponse {
  const { subscriptionId, name } = path;
  if (name === undefined) {
    if (method !== 'GET') throw new ArmError(405, 'MethodNotAllowed', `The resource groups collection does not support the HTTP method '${method}'.`);
    return { status: 200, body: { value: groups.inSubscription(subscriptionId).map(resourceGroupDocument) } };
  }
  switch (method) {
    case 'HEAD':
      return { status: groups.has(subscriptionId, name) ? 204 : 404 };
    case 'GET': {
      const group = groups.get(subscriptionId, name);
      if (group === undefined) throw resourceGroupNotFound(name);
      return { status: 200, body: resourceGroupDocument(group) };
    }
    case 'PUT': {
      const location = isJsonObject(body) ? body.location : undefined;
      if (typeof location !== 'string' || location === '') throw badRequest("'location' is required for a resource group.", 'LocationRequired');
      const tags = isJsonObject(body) && isJsonObject(body.tags) ? (body.tags as Record<string, string>) : {};
      const { group, created } = groups.put(subscriptionId, name, location, tags);
      return { status: created ? 201 : 200, body: resourceGroupDocument(group) };
    }
    case 'DELETE':
      if (!groups.has(subscriptionId, name)) return { status: 204 };
      removeAll(subscriptionId, name);
      groups.remove(subscriptionId, name);
      return { status: 200 };
    default:
      throw new ArmError(405, 'MethodNotAllowed', `Resource groups do not support the HTTP method '${method}'.`);
  }
}
