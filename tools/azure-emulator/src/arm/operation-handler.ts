import { ArmError } from './errors.js';
import type { ArmResponse } from './http.js';
import { operationStatusBody } from './lro.js';
import { renderResource } from './render.js';
import type { EmulatorContext } from '../emulator-context.js';

/**
 * GET on an operation's Azure-AsyncOperation URL (`.../operationStatuses/{id}`: the status document) or its
 * Location URL (`.../operationResults/{id}`: 202 while running, then the resource, or 204 after a delete).
 */
export function handleOperationRequest(method: string, which: string, operationId: string, url: URL, context: EmulatorContext): ArmResponse {
  if (method !== 'GET') throw new ArmError(405, 'MethodNotAllowed', `Operation resources support only GET, not ${method}.`);
  const operation = context.operations.get(operationId);
  if (operation === undefined) throw new ArmError(404, 'OperationNotFound', `The operation '${operationId}' was not found.`);
  const running = operation.status === 'InProgress';
  const seconds = context.timing.pollRetryAfterSeconds;
  const retryAfter: Record<string, string> = running && seconds !== undefined ? { 'retry-after': String(seconds) } : {};
  if (which === 'operationstatuses') return { status: 200, body: operationStatusBody(operation), headers: retryAfter };
  if (running) return { status: 202, headers: { ...retryAfter, location: url.toString() } };
  if (operation.status !== 'Succeeded') {
    const error = operation.error ?? { code: 'OperationCanceled', message: 'The operation was canceled because its resource was deleted.' };
    return { status: operation.error === undefined ? 409 : 500, body: { error } };
  }
  const record = context.store.get(operation.resourceKey);
  const kind = record === undefined ? undefined : context.kinds.find(record.kindKey);
  if (operation.method === 'DELETE' || record === undefined || kind === undefined) return { status: 204 };
  return { status: 200, body: renderResource(record, kind, context) };
}
