import type { GatewayIdentity } from '@fleet-gateway/model';
import { profileName } from '../plan/afd-names.js';
import type { FrontDoorScope } from '../plan/afd-refs.js';
import type { FrontDoorClients } from '../clients/arm-clients.js';
import { classifyArmError, describeFailure, isNotFound, type ArmFailure } from '@fleet-gateway/arm-runtime';
import { operationDeadline } from './operation-deadline.js';
import { sendWrite } from './arm-write.js';
import { followOperations, type FollowedWrite, type FollowSettings } from './operation-follower.js';
import { checkOwnership } from '../plan/ownership.js';
import type { ReconcileOutcome } from '../observe/report-types.js';

export interface DeleteReport {
  readonly profile: string;
  /** `deleted`: we deleted it; `absent`: nothing to delete; `refused`: not ours; `failed`: ARM said no. */
  readonly result: 'deleted' | 'absent' | 'refused' | 'failed';
  readonly message: string;
  readonly outcome: ReconcileOutcome;
  /** What ARM answered when the result is `failed` (so the caller can tell an operator which access is missing). */
  readonly failure?: ArmFailure;
}

export interface DeleteOptions extends FollowSettings {
  readonly hubIdentity: string;
  readonly scope: FrontDoorScope;
  readonly abortSignal?: AbortSignal;
  /** How long the profile's deletion is followed (default 10 min); past it, it is tried again (a 404 then ends it). */
  readonly operationDeadlineMs?: number;
  /** Asked just before the delete: a reason (e.g. the leader Lease is no longer valid) stops it, as a transient failure. */
  readonly fence?: () => string | undefined;
}

/**
 * Deleting a Gateway deletes its profile (AFD removes every child with it), only after the profile's tags prove
 * it is this Gateway's and no endpoint in it belongs to someone else (2 reads, 1 write, and the GETs of the profile that
 * follow its deletion: see `followOperations`). A profile that is not ours is never deleted; the WAF policy and
 * Private Link Services it used are never touched.
 */
export async function deleteFrontDoor(clients: FrontDoorClients, gateway: GatewayIdentity, options: DeleteOptions): Promise<DeleteReport> {
  const profile = profileName(gateway);
  const rg = options.scope.resourceGroup;
  const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
  const failedWith = (failure: ArmFailure, doing: string): DeleteReport => {
    const message = `${doing} profile ${profile} failed: ${describeFailure(failure)}`;
    return {
      profile,
      result: 'failed',
      message,
      failure,
      outcome: failure.class === 'terminal' ? { type: 'terminal', reason: message } : { type: 'retry', reason: message },
    };
  };
  const failed = (error: unknown, doing: string) => failedWith(classifyArmError(error), doing);
  let tags: Record<string, string> | undefined;
  try {
    tags = (await clients.cdn.profiles.get(rg, profile, call)).tags;
  } catch (error) {
    if (isNotFound(error)) return { profile, result: 'absent', message: `profile ${profile} does not exist`, outcome: { type: 'done' } };
    return failed(error, 'reading');
  }
  const owner = { hubIdentity: options.hubIdentity, gateway };
  const ownership = checkOwnership(tags, owner);
  if (!ownership.owned) {
    const message = `profile ${profile} is not this Gateway's (${ownership.reason}); it was left in place`;
    return { profile, result: 'refused', message, outcome: { type: 'terminal', reason: message } };
  }
  // Deleting the profile deletes everything in it: an endpoint someone else added there must not go with it.
  const foreign: string[] = [];
  try {
    for await (const endpoint of clients.cdn.afdEndpoints.listByProfile(rg, profile, call)) {
      if (!checkOwnership(endpoint.tags, owner).owned) foreign.push(endpoint.name ?? '');
    }
  } catch (error) {
    return failed(error, 'listing the endpoints of');
  }
  if (foreign.length > 0) {
    const message = `profile ${profile} holds endpoint(s) ${foreign.join(', ')} without this Gateway's ownership tags; deleting the profile would delete them too, so nothing was deleted (move or delete them, then the profile goes)`;
    return { profile, result: 'refused', message, outcome: { type: 'terminal', reason: message } };
  }
  const fenced = options.fence?.();
  if (fenced) {
    const message = `deleting profile ${profile} was not attempted: ${fenced}`;
    return { profile, result: 'failed', message, outcome: { type: 'retry', reason: message } };
  }
  const deadline = operationDeadline(options.abortSignal, options.operationDeadlineMs);
  const stillRunning = (): DeleteReport => {
    const message = `ARM had not finished deleting profile ${profile} within ${deadline.deadlineMs / 1000} s; it is observed again`;
    return { profile, result: 'failed', message, outcome: { type: 'retry', reason: message } };
  };
  const sentAt = (options.operationClock ?? Date).now();
  try {
    const answer = await sendWrite(clients.cdn, (cdn) => cdn.profiles.beginDelete(rg, profile), { abortSignal: deadline.signal });
    if (answer.statusUrl !== undefined && answer.status === 202) {
      const write: FollowedWrite = { ref: { kind: 'profile', profile }, action: 'delete', answer, sentAt };
      const [followed] = await followOperations(clients.cdn, rg, [write], { ...options, signal: deadline.signal });
      if (followed?.outcome === 'failed') return failedWith(followed.failure, 'deleting');
      if (followed?.outcome === 'in-flight') return deadline.expired() ? stillRunning() : failed(options.abortSignal?.reason, 'deleting');
    }
  } catch (error) {
    if (deadline.expired()) return stillRunning();
    if (!isNotFound(error)) return failed(error, 'deleting');
  }
  return { profile, result: 'deleted', message: `profile ${profile} and everything under it were deleted`, outcome: { type: 'done' } };
}
