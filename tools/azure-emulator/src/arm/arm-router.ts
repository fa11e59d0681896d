import { ArmError, badRequest } from './errors.js';
import type { ArmResponse } from './http.js';
import { typeName, type ResourceKind } from './kind.js';
import { handleOperationRequest } from './operation-handler.js';
import { handleResourceGroupRequest, parseResourceGroupPath } from './resource-groups.js';
import { handleActionRequest, handleCollectionRequest, handleResourceRequest, removeResourceGroupContents } from './resource-handler.js';
import { isCollection, kindKeyOf, parseArmPath, type ArmPath } from './resource-id.js';
import type { EmulatorContext } from '../emulator-context.js';

export interface IncomingArmRequest {
  method: string;
  url: URL;
  baseUrl: string;
  body: unknown;
}

const OPERATION_TYPES = new Set(['operationstatuses', 'operationresults']);

/** Dispatches an authenticated, admitted ARM request to the operation or resource handlers. */
export function routeArmRequest(request: IncomingArmRequest, context: EmulatorContext): ArmResponse {
  const groupPath = parseResourceGroupPath(request.url.pathname);
  if (groupPath !== undefined) {
    requireApiVersion(request.url);
    return handleResourceGroupRequest(request.method, groupPath, request.body, context.resourceGroups, (s, g) => removeResourceGroupContents(s, g, context));
  }
  const path = parseArmPath(request.url.pathname);
  if (path === undefined) throw new ArmError(404, 'NotFound', `No ARM resource path matches '${request.url.pathname}'.`);
  const [first, second] = path.types.map((type) => type.toLowerCase());
  if (first === 'locations' && second !== undefined && OPERATION_TYPES.has(second) && path.names.length === 2) {
    return handleOperationRequest(request.method, second, path.names[1] as string, request.url, context);
  }
  const apiVersion = requireApiVersion(request.url);
  const actionOf = resourceAction(request.method, path, context);
  if (actionOf !== undefined) {
    return handleActionRequest(
      { method: request.method, path: actionOf.path, url: request.url, baseUrl: request.baseUrl, body: request.body },
      actionOf.action,
      actionOf.kind,
      context,
    );
  }
  const kind = context.kinds.find(kindKeyOf(path.provider, path.types));
  if (kind === undefined) {
    throw new ArmError(
      404,
      'InvalidResourceType',
      `The resource type '${path.types.join('/')}' could not be found in the namespace '${path.provider}' for api version '${apiVersion}'.`,
    );
  }
  if (!kind.apiVersions.includes(apiVersion)) {
    throw badRequest(
      `No registered resource provider found for API version '${apiVersion}' and type '${typeName(kind)}'. The supported api-versions are '${kind.apiVersions.join(', ')}'.`,
      'NoRegisteredProviderFound',
    );
  }
  const armRequest = { method: request.method, path, url: request.url, baseUrl: request.baseUrl, body: request.body };
  if (isCollection(path)) return handleCollectionRequest(armRequest, kind, context);
  return handleResourceRequest(armRequest, kind, context);
}

/** POST `.../{type}/{name}/{action}` where the resource's kind declares the action: the resource path and the action. */
function resourceAction(method: string, path: ArmPath, context: EmulatorContext): { path: ArmPath; action: string; kind: ResourceKind } | undefined {
  if (method !== 'POST' || !isCollection(path) || path.names.length === 0) return undefined;
  const action = path.types[path.types.length - 1] as string;
  const resourcePath = { ...path, types: path.types.slice(0, -1) };
  const kind = context.kinds.find(kindKeyOf(resourcePath.provider, resourcePath.types));
  return kind?.actions?.[action.toLowerCase()] === undefined ? undefined : { path: resourcePath, action, kind };
}

function requireApiVersion(url: URL): string {
  const apiVersion = url.searchParams.get('api-version');
  if (apiVersion === null || apiVersion === '') {
    throw badRequest('The api-version query parameter (?api-version=) is required for all requests.', 'MissingApiVersionParameter');
  }
  return apiVersion;
}

/** The resource type a request is counted under. */
export function resourceTypeOf(pathname: string, context: EmulatorContext): string {
  if (parseResourceGroupPath(pathname) !== undefined) return 'Microsoft.Resources/resourceGroups';
  const path = parseArmPath(pathname);
  if (path === undefined) return 'unknown';
  const [first, second] = path.types.map((type) => type.toLowerCase());
  if (first === 'locations' && second !== undefined && OPERATION_TYPES.has(second)) return `${path.provider}/locations/${path.types[1]}`;
  const kind = context.kinds.find(kindKeyOf(path.provider, path.types));
  return kind === undefined ? [path.provider, ...path.types].join('/') : typeName(kind);
}
