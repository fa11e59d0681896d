import { randomUUID } from 'node:crypto';
import { ArmError, badRequest, parentResourceNotFound, resourceNotFound } from './errors.js';
import type { ArmResponse } from './http.js';
import { isJsonObject, mergePatch, withoutNulls, type JsonObject } from './json.js';
import { typeName, type ResourceKind, type WriteRequest } from './kind.js';
import { operationResultPath, operationStatusPath, type Operation, type OperationAction, type OperationMethod } from './lro.js';
import { pageOf } from './paging.js';
import { resourceGroupNotFound } from './resource-groups.js';
import { renderResource } from './render.js';
import { formatArmPath, kindKeyOf, parentPath, resourceKey, type ArmPath } from './resource-id.js';
import type { ResourceBody, ResourceRecord } from './store.js';
import type { EmulatorContext } from '../emulator-context.js';

export interface ArmRequest {
  method: string;
  path: ArmPath;
  url: URL;
  /** https://host:port of this server, for nextLink and operation URLs. */
  baseUrl: string;
  body: unknown;
}

const TOP_LEVEL_READ_ONLY = new Set(['id', 'name', 'type', 'etag', 'systemData']);

export function handleResourceRequest(request: ArmRequest, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  requireResourceGroup(request.path, context);
  switch (request.method) {
    case 'GET':
      return getResource(request, kind, context);
    case 'PUT':
      if (kind.putSchema === undefined) throw methodNotAllowed(kind, request.method);
      return putResource(request, kind, context);
    case 'PATCH':
      if (kind.patchSchema === undefined) throw methodNotAllowed(kind, request.method);
      return patchResource(request, kind, context);
    case 'DELETE':
      if (!kind.deletable) throw methodNotAllowed(kind, request.method);
      return deleteResource(request, kind, context);
    default:
      throw methodNotAllowed(kind, request.method);
  }
}

/** A POST action (e.g. AFDCustomDomains_RefreshValidationToken): 202 with operation headers, like ARM's. */
export function handleActionRequest(request: ArmRequest, name: string, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  requireResourceGroup(request.path, context);
  const action = kind.actions?.[name.toLowerCase()];
  if (action === undefined || request.method !== 'POST') throw methodNotAllowed(kind, request.method);
  const record = context.store.get(resourceKey(formatArmPath(request.path)));
  if (record === undefined)
    throw resourceNotFound(typeName(kind), request.path.names[request.path.names.length - 1] as string, request.path.resourceGroup ?? '');
  const running = record.operationId === undefined ? undefined : context.operations.get(record.operationId);
  if (running?.status === 'InProgress') throw busy(record);
  action.start(record, context);
  context.store.changed();
  const operation = startOperation('POST', undefined, record, kind, context, request, (outcome) => {
    if (outcome === 'Succeeded') action.complete(record, context);
    context.store.changed();
  });
  return { status: 202, headers: operationHeaders(operation, request.baseUrl, context) };
}

export function handleCollectionRequest(request: ArmRequest, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  if (request.method !== 'GET') throw methodNotAllowed(kind, request.method);
  requireResourceGroup(request.path, context);
  const kindKey = kindKeyOf(kind.provider, kind.types);
  let records: ResourceRecord[];
  if (request.path.types.length > 1) {
    const parent = requireParent(request.path, context) as ResourceRecord;
    records = context.store.ofKind(kindKey, parent.key);
  } else {
    const group = request.path.resourceGroup?.toLowerCase();
    records = context.store
      .inSubscription(kindKey, request.path.subscriptionId)
      .filter((r) => group === undefined || r.path.resourceGroup?.toLowerCase() === group);
  }
  const documents = records.map((record) => renderResource(record, kind, context));
  return { status: 200, body: pageOf(documents, request.url, request.baseUrl, context.pageSize) };
}

function getResource(request: ArmRequest, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  requireParent(request.path, context);
  const record = context.store.get(resourceKey(formatArmPath(request.path)));
  if (record === undefined) throw notFound(request.path, kind);
  return { status: 200, body: renderResource(record, kind, context) };
}

function putResource(request: ArmRequest, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  const parent = requireParent(request.path, context);
  const key = resourceKey(formatArmPath(request.path));
  const existing = context.store.get(key);
  refuseWhileBusy(existing, context);
  const body = kind.putSchema === null ? { properties: {} } : validatedPutBody(request.body, kind, context);
  const write: WriteRequest = { method: 'PUT', path: request.path, key, existing, parent, body };
  kind.check?.(write, context);
  const record = existing ?? newRecord(request.path, key, kind, context);
  return applyWrite(record, write, kind, context, request, existing === undefined ? 201 : 200);
}

function patchResource(request: ArmRequest, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  const parent = requireParent(request.path, context);
  const key = resourceKey(formatArmPath(request.path));
  const existing = context.store.get(key);
  if (existing === undefined) throw notFound(request.path, kind);
  refuseWhileBusy(existing, context);
  if (!isJsonObject(request.body)) throw invalidBody(kind, 'The request body must be a JSON object.');
  const patch = request.body;
  context.validator.validate(kind.patchSchema as NonNullable<ResourceKind['patchSchema']>, withoutNulls(structuredClone(patch)), {
    applyDefaults: false,
    errorCode: invalidBodyCode(kind),
  });
  const merged = mergedBody(existing.body, patch, context.validator.memberNames(kind.patchSchema as NonNullable<ResourceKind['patchSchema']>));
  const write: WriteRequest = { method: 'PATCH', path: request.path, key, existing, parent, body: merged };
  kind.check?.(write, context);
  return applyWrite(existing, write, kind, context, request, 200);
}

function deleteResource(request: ArmRequest, kind: ResourceKind, context: EmulatorContext): ArmResponse {
  requireParent(request.path, context);
  const record = context.store.get(resourceKey(formatArmPath(request.path)));
  if (record === undefined) return { status: 204 };
  const running = record.operationId === undefined ? undefined : context.operations.get(record.operationId);
  if (running?.status === 'InProgress') {
    if (running.method === 'DELETE') return { status: 202, headers: operationHeaders(running, request.baseUrl, context) };
    throw busy(record);
  }
  kind.checkDelete?.(record, context);
  record.provisioningState = 'Deleting';
  if (!kind.lro.delete) {
    removeWithDescendants(record, context);
    return { status: 200 };
  }
  const operation = startOperation('DELETE', 'delete', record, kind, context, request, (outcome) => {
    if (outcome === 'Succeeded') removeWithDescendants(record, context);
    else failRecord(record, context);
  });
  if (operation.status === 'Succeeded') return { status: 204 };
  return { status: 202, headers: operationHeaders(operation, request.baseUrl, context) };
}

function applyWrite(
  record: ResourceRecord,
  write: WriteRequest,
  kind: ResourceKind,
  context: EmulatorContext,
  request: ArmRequest,
  status: number,
): ArmResponse {
  const creating = write.existing === undefined;
  const now = context.now();
  record.body = write.body;
  record.etag = `W/"${randomUUID()}"`;
  record.modifiedAt = new Date(now).toISOString();
  record.provisioningState = creating && kind.provider === 'Microsoft.Cdn' ? 'Creating' : 'Updating';
  kind.prepare?.(record, write, context);
  if (creating) context.store.put(record);
  const lro = write.method === 'PUT' ? kind.lro.put : kind.lro.patch;
  if (!lro) {
    provision(record, kind, context);
    return { status, body: renderResource(record, kind, context) };
  }
  const operation = startOperation(write.method, creating ? 'create' : 'update', record, kind, context, request, (outcome) => {
    if (outcome === 'Succeeded') provision(record, kind, context);
    else failRecord(record, context);
  });
  // The specs allow 202 for a long-running PATCH (AFD's *_Update, Profiles_Update): ARM answers it while it runs.
  const running = operation.status === 'InProgress';
  const accepted = write.method === 'PATCH' && running;
  const headers = running || context.timing.operationHeadersWhenEnded ? operationHeaders(operation, request.baseUrl, context) : {};
  return { status: accepted ? 202 : status, body: renderResource(record, kind, context), headers };
}

function provision(record: ResourceRecord, kind: ResourceKind, context: EmulatorContext): void {
  record.provisioningState = 'Succeeded';
  record.provisionedAtMs = context.now();
  record.applied = structuredClone(record.body);
  kind.onProvisioned?.(record, context);
  context.store.changed();
}

function failRecord(record: ResourceRecord, context: EmulatorContext): void {
  record.provisioningState = 'Failed';
  context.store.changed();
}

/** Resources live in resource groups that exist: ARM answers 404 ResourceGroupNotFound otherwise. */
function requireResourceGroup(path: ArmPath, context: EmulatorContext): void {
  if (path.resourceGroup !== undefined && !context.resourceGroups.has(path.subscriptionId, path.resourceGroup)) throw resourceGroupNotFound(path.resourceGroup);
}

/** Everything in a resource group goes with it. */
export function removeResourceGroupContents(subscriptionId: string, resourceGroup: string, context: EmulatorContext): void {
  const prefix = resourceKey(`/subscriptions/${subscriptionId}/resourcegroups/${resourceGroup}`);
  const tops = context.store.all().filter((record) => record.key.startsWith(`${prefix}/`) && parentPath(record.path) === undefined);
  for (const record of tops) removeWithDescendants(record, context);
}

/** Removes a resource and everything under it, deepest first, as deleting a parent does in ARM. */
function removeWithDescendants(record: ResourceRecord, context: EmulatorContext): void {
  for (const victim of [...context.store.descendants(record.key), record]) {
    if (victim.operationId !== undefined) context.operations.cancel(victim.operationId);
    context.store.remove(victim.key);
    context.kinds.find(victim.kindKey)?.onRemoved?.(victim, context);
  }
  context.store.changed();
}

function startOperation(
  method: OperationMethod,
  action: OperationAction | undefined,
  record: ResourceRecord,
  kind: ResourceKind,
  context: EmulatorContext,
  request: ArmRequest,
  complete: (outcome: 'Succeeded' | 'Failed') => void,
): Operation {
  const operation = context.operations.start({
    subscriptionId: request.path.subscriptionId,
    provider: kind.provider,
    location: typeof record.body.location === 'string' ? record.body.location : 'global',
    // The operation URLs carry the api-version of the request that started them, as ARM's do.
    apiVersion: request.url.searchParams.get('api-version') ?? kind.apiVersions[0] ?? '',
    method,
    resourceKey: record.key,
    durationMs: context.timing.durationMs(record.kindKey, action),
    failWith: context.takeLroFailure(method, request.url.pathname),
    complete,
  });
  if (operation.status === 'InProgress') record.operationId = operation.id;
  return operation;
}

function operationHeaders(operation: Operation, baseUrl: string, context: EmulatorContext): Record<string, string> {
  const query = `?api-version=${operation.apiVersion}`;
  const retryAfter = context.timing.acceptedRetryAfterSeconds;
  return {
    'azure-asyncoperation': `${baseUrl}${operationStatusPath(operation)}${query}`,
    location: `${baseUrl}${operationResultPath(operation)}${query}`,
    ...(retryAfter === undefined || operation.status !== 'InProgress' ? {} : { 'retry-after': String(retryAfter) }),
  };
}

/** Merges only the members the PATCH schema declares (so e.g. a profile's SKU cannot change by PATCH). */
function mergedBody(existing: ResourceBody, patch: JsonObject, members: readonly string[]): ResourceBody {
  const merged = structuredClone(existing);
  for (const member of members) {
    if (!(member in patch) || TOP_LEVEL_READ_ONLY.has(member)) continue;
    const value = patch[member];
    // Tag updates replace the whole tag set, as ARM's UpdateTags does; other members merge (RFC 7396).
    if (member === 'tags') merged.tags = value === null ? {} : (structuredClone(value) as Record<string, string>);
    else if (value === null) delete merged[member];
    else merged[member] = mergePatch(merged[member], value);
  }
  merged.properties = isJsonObject(merged.properties) ? merged.properties : {};
  return merged;
}

function validatedPutBody(body: unknown, kind: ResourceKind, context: EmulatorContext): ResourceBody {
  if (!isJsonObject(body)) throw invalidBody(kind, 'The request body must be a JSON object.');
  const candidate = withoutNulls(structuredClone(body));
  context.validator.validate(kind.putSchema as NonNullable<ResourceKind['putSchema']>, candidate, {
    applyDefaults: true,
    errorCode: invalidBodyCode(kind),
  });
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(candidate)) {
    if (!TOP_LEVEL_READ_ONLY.has(key)) result[key] = value;
  }
  if (!kind.tracked) {
    delete result.location;
    delete result.tags;
  }
  result.properties = isJsonObject(result.properties) ? result.properties : {};
  return result as ResourceBody;
}

function newRecord(path: ArmPath, key: string, kind: ResourceKind, context: EmulatorContext): ResourceRecord {
  const now = new Date(context.now()).toISOString();
  return {
    id: formatArmPath(path),
    key,
    kindKey: kindKeyOf(kind.provider, kind.types),
    path,
    name: path.names[path.names.length - 1] as string,
    body: { properties: {} },
    provisioningState: 'Creating',
    etag: '',
    createdAt: now,
    modifiedAt: now,
    internal: {},
  };
}

/** The nearest missing ancestor answers ParentResourceNotFound, as ARM does for nested resources. */
function requireParent(path: ArmPath, context: EmulatorContext): ResourceRecord | undefined {
  const ancestors: ArmPath[] = [];
  for (let parent = parentPath(path); parent !== undefined; parent = parentPath(parent)) ancestors.unshift(parent);
  let found: ResourceRecord | undefined;
  for (const ancestor of ancestors) {
    found = context.store.get(resourceKey(formatArmPath(ancestor)));
    if (found === undefined) throw parentResourceNotFound(ancestor.names[ancestor.names.length - 1] as string);
  }
  return found;
}

function refuseWhileBusy(record: ResourceRecord | undefined, context: EmulatorContext): void {
  if (record !== undefined && context.operations.isRunning(record.operationId)) throw busy(record);
}

function busy(record: ResourceRecord): ArmError {
  return new ArmError(
    409,
    'AnotherOperationInProgress',
    `Another operation on resource '${record.id}' is in progress (provisioningState ${record.provisioningState}); retry when it completes.`,
  );
}

function notFound(path: ArmPath, kind: ResourceKind): ArmError {
  const nested = kind.types.map((type, i) => `${type}/${path.names[i]}`).join('/');
  const [typeAndNames, name] = [nested.slice(0, nested.lastIndexOf('/')), path.names[path.names.length - 1] as string];
  return resourceNotFound(`${kind.provider}/${typeAndNames}`, name, path.resourceGroup ?? '');
}

function methodNotAllowed(kind: ResourceKind, method: string): ArmError {
  return new ArmError(
    405,
    'MethodNotAllowed',
    `The resource type '${typeName(kind)}' does not support the HTTP method '${method}' at api-version '${kind.apiVersions.join(', ')}'.`,
  );
}

function invalidBodyCode(kind: ResourceKind): string {
  return kind.provider === 'Microsoft.Network' ? 'InvalidRequestFormat' : 'BadRequest';
}

function invalidBody(kind: ResourceKind, message: string): ArmError {
  return badRequest(message, invalidBodyCode(kind));
}
