import type { AFDDomain, AFDEndpoint, AFDOrigin, AFDOriginGroup, CdnManagementClient, Profile, Route, Rule, SecurityPolicy } from '@azure/arm-cdn';
import { describeRef, type AfdRef, type FrontDoorScope } from '../plan/afd-refs.js';
import { classifyArmError, describeFailure, isNotFound, type ArmFailure } from '@fleet-gateway/arm-runtime';
import { mapBounded } from '../observe/observe.js';
import { operationDependencies } from './operation-dependencies.js';
import { operationDeadline, type OperationDeadline } from './operation-deadline.js';
import { sendWrite, type WriteAnswer, type Written } from './arm-write.js';
import { followOperations, type FollowedWrite, type FollowResult, type FollowSettings } from './operation-follower.js';
import { ArmWriteFencedError } from '@fleet-gateway/arm-runtime';
import { orderOperations, type Operation } from '../diff/operations.js';
import type { ArmRequestCount } from '@fleet-gateway/arm-runtime';

export interface ApplyOptions extends FollowSettings {
  /** Writes in flight at once within one level (default 8). */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Counts the writes and the reads that follow their long-running operations. */
  readonly requests?: ArmRequestCount;
  /** A resource's body as observed before this apply: who named a resource about to be deleted (default: unknown). */
  readonly before?: (ref: AfdRef) => object | undefined;
  /** A terminal refusal ARM gave this exact write before: the write is not sent again and fails as it did. */
  readonly recall?: (op: Operation) => ArmFailure | undefined;
  /**
   * How long one level's writes and their long-running operations are followed (default 10 min). Past it a write is
   * `in-flight`: ARM may still finish it, so it is neither done nor failed, and the next reconcile observes it.
   */
  readonly operationDeadlineMs?: number;
  /**
   * Asked before each level of writes: a reason (e.g. this replica's leader Lease is no longer valid) stops the
   * apply there, and that level and every later one are skipped with it.
   */
  readonly fence?: () => string | undefined;
}

/** What ARM answered for a write: the resource as it now is (for readiness), or the classified failure. */
export type OperationResult =
  | { readonly op: Operation; readonly outcome: 'done'; readonly resource?: Written }
  /** `recalled`: not sent; ARM refused this exact write terminally before (see `ApplyOptions.recall`). */
  | { readonly op: Operation; readonly outcome: 'failed'; readonly failure: ArmFailure; readonly recalled?: boolean }
  /** `fenced`: stopped by the fence (this replica may no longer write), not by a failure it depends on. */
  | { readonly op: Operation; readonly outcome: 'skipped'; readonly because: string; readonly fenced?: boolean }
  | { readonly op: Operation; readonly outcome: 'in-flight'; readonly because: string };

/** The SDK call whose request is a PUT of the operation's body (`sendWrite` sends it without the SDK's poller). */
function put(rg: string, op: Operation): (cdn: CdnManagementClient) => Promise<unknown> {
  const ref = op.ref;
  switch (ref.kind) {
    case 'profile':
      return (cdn) => cdn.profiles.beginCreate(rg, ref.profile, op.body as Profile);
    case 'endpoint':
      return (cdn) => cdn.afdEndpoints.beginCreate(rg, ref.profile, ref.endpoint, op.body as AFDEndpoint);
    case 'customDomain':
      return (cdn) => cdn.afdCustomDomains.beginCreate(rg, ref.profile, ref.customDomain, op.body as AFDDomain);
    case 'originGroup':
      return (cdn) => cdn.afdOriginGroups.beginCreate(rg, ref.profile, ref.originGroup, op.body as AFDOriginGroup);
    case 'origin':
      return (cdn) => cdn.afdOrigins.beginCreate(rg, ref.profile, ref.originGroup, ref.origin, op.body as AFDOrigin);
    case 'route':
      return (cdn) => cdn.routes.beginCreate(rg, ref.profile, ref.endpoint, ref.route, op.body as Route);
    case 'ruleSet':
      return (cdn) => cdn.ruleSets.create(rg, ref.profile, ref.ruleSet);
    case 'rule':
      return (cdn) => cdn.rules.beginCreate(rg, ref.profile, ref.ruleSet, ref.rule, op.body as Rule);
    case 'securityPolicy':
      return (cdn) => cdn.securityPolicies.beginCreate(rg, ref.profile, ref.securityPolicy, op.body as SecurityPolicy);
  }
}

/** The SDK call whose request is the DELETE of the operation's resource. */
function remove(rg: string, op: Operation): (cdn: CdnManagementClient) => Promise<unknown> {
  const ref = op.ref;
  switch (ref.kind) {
    case 'profile':
      return (cdn) => cdn.profiles.beginDelete(rg, ref.profile);
    case 'endpoint':
      return (cdn) => cdn.afdEndpoints.beginDelete(rg, ref.profile, ref.endpoint);
    case 'customDomain':
      return (cdn) => cdn.afdCustomDomains.beginDelete(rg, ref.profile, ref.customDomain);
    case 'originGroup':
      return (cdn) => cdn.afdOriginGroups.beginDelete(rg, ref.profile, ref.originGroup);
    case 'origin':
      return (cdn) => cdn.afdOrigins.beginDelete(rg, ref.profile, ref.originGroup, ref.origin);
    case 'route':
      return (cdn) => cdn.routes.beginDelete(rg, ref.profile, ref.endpoint, ref.route);
    case 'ruleSet':
      return (cdn) => cdn.ruleSets.beginDelete(rg, ref.profile, ref.ruleSet);
    case 'rule':
      return (cdn) => cdn.rules.beginDelete(rg, ref.profile, ref.ruleSet, ref.rule);
    case 'securityPolicy':
      return (cdn) => cdn.securityPolicies.beginDelete(rg, ref.profile, ref.securityPolicy);
  }
}

/** A write sent, and either its outcome (ARM answered it whole, or refused it) or its operation to follow. */
type Sent = { readonly result: OperationResult } | { readonly followed: FollowedWrite };

async function send(cdn: CdnManagementClient, scope: FrontDoorScope, op: Operation, deadline: OperationDeadline, options: ApplyOptions): Promise<Sent> {
  const call = { abortSignal: deadline.signal, ...(options.requests ? { requests: options.requests } : {}) };
  const sentAt = (options.operationClock ?? Date).now();
  try {
    const answer = await sendWrite(cdn, op.action === 'delete' ? remove(scope.resourceGroup, op) : put(scope.resourceGroup, op), call);
    if (settledAtOnce(op.action, answer))
      return { result: { op, outcome: 'done', ...(op.action === 'delete' || !answer.resource ? {} : { resource: answer.resource }) } };
    return { followed: { ref: op.ref, action: op.action, answer, sentAt } };
  } catch (error) {
    return { result: failedWrite(op, error, deadline) };
  }
}

/**
 * ARM answered the write whole: synchronously (no operation to follow), a DELETE with 200/204, or a PUT whose body
 * reads Succeeded or has no provisioningState (ARM's async contract: a running PUT answers a non-terminal state).
 */
function settledAtOnce(action: Operation['action'], answer: WriteAnswer): boolean {
  if (answer.statusUrl === undefined) return true;
  if (action === 'delete') return answer.status === 200 || answer.status === 204;
  const state = answer.resource?.provisioningState;
  return answer.status !== 202 && answer.resource !== undefined && (state === undefined || state.toLowerCase() === 'succeeded');
}

function failedWrite(op: Operation, error: unknown, deadline: OperationDeadline): OperationResult {
  // Gone already is what a delete wants.
  if (op.action === 'delete' && isNotFound(error)) return { op, outcome: 'done' };
  if (error instanceof ArmWriteFencedError) return { op, outcome: 'skipped', because: `not attempted: ${error.reason}`, fenced: true };
  if (deadline.expired()) return inFlight(op, deadline);
  return { op, outcome: 'failed', failure: classifyArmError(error) };
}

function inFlight(op: Operation, deadline: OperationDeadline): OperationResult {
  return { op, outcome: 'in-flight', because: `ARM had not finished the ${op.action} within ${deadline.deadlineMs / 1000} s; it is observed again` };
}

/** Sends one level's writes, then follows the operations still running together (see `followOperations`). */
async function executeLevel(cdn: CdnManagementClient, scope: FrontDoorScope, ops: readonly Operation[], options: ApplyOptions): Promise<OperationResult[]> {
  const deadline = operationDeadline(options.abortSignal, options.operationDeadlineMs);
  const sent = await mapBounded(ops, options.concurrency ?? 8, (op) => send(cdn, scope, op, deadline, options));
  const running = sent.flatMap((s, i) => ('followed' in s ? [{ op: ops[i]!, followed: s.followed }] : []));
  const followed = await followOperations(
    cdn,
    scope.resourceGroup,
    running.map((r) => r.followed),
    { ...options, signal: deadline.signal },
  );
  const outcomes = new Map(running.map((r, i): [Operation, OperationResult] => [r.op, resultOf(r.op, followed[i]!, deadline, options.abortSignal)]));
  return sent.map((s, i) => ('result' in s ? s.result : outcomes.get(ops[i]!)!));
}

function resultOf(op: Operation, followed: FollowResult, deadline: OperationDeadline, caller: AbortSignal | undefined): OperationResult {
  if (followed.outcome === 'done') return { op, outcome: 'done', ...(followed.resource ? { resource: followed.resource } : {}) };
  if (followed.outcome === 'failed') return { op, outcome: 'failed', failure: followed.failure };
  if (caller?.aborted && !deadline.expired()) return { op, outcome: 'failed', failure: classifyArmError(caller.reason) };
  return inFlight(op, deadline);
}

function blockedBy(blocker: Exclude<OperationResult, { outcome: 'done' }>): string {
  if (blocker.outcome === 'failed') return `failed (${describeFailure(blocker.failure)})`;
  return blocker.outcome === 'in-flight' ? 'is still in flight' : 'was not attempted';
}

/**
 * Runs the writes level by level (see `levelOf`), each level concurrently. An operation whose needs (see
 * `operationDependencies`) failed, are still in flight at their deadline or were not attempted is not attempted: a
 * route never switches to a group that failed to appear, and nothing is deleted while a resource that named it still
 * does. Everything independent of a failure is written, so one team's refused resource holds back only what depends
 * on it. The fence is asked before each level; once it gives a reason, nothing more is written.
 */
export async function applyOperations(
  cdn: CdnManagementClient,
  scope: FrontDoorScope,
  operations: readonly Operation[],
  options: ApplyOptions = {},
): Promise<OperationResult[]> {
  const needs = operationDependencies(operations, options.before);
  const index = new Map(operations.map((op, i) => [op, i]));
  const outcomes: (OperationResult | undefined)[] = [];
  const results: OperationResult[] = [];
  let fenced: string | undefined;
  for (const level of orderOperations(operations)) {
    fenced ??= options.fence?.();
    if (fenced) {
      const because = `not attempted: ${fenced}`;
      results.push(...level.map((op): OperationResult => ({ op, outcome: 'skipped', because, fenced: true })));
      continue;
    }
    const run: Operation[] = [];
    for (const op of level) {
      const i = index.get(op)!;
      const blocker = needs[i]!.map((n) => outcomes[n]).find((r) => r !== undefined && r.outcome !== 'done');
      const refusal = options.recall?.(op);
      const result: OperationResult | undefined = blocker
        ? { op, outcome: 'skipped', because: `not attempted: ${blocker.op.action} of ${describeRef(blocker.op.ref)} ${blockedBy(blocker)}` }
        : refusal
          ? { op, outcome: 'failed', failure: refusal, recalled: true }
          : undefined;
      if (result) {
        outcomes[i] = result;
        results.push(result);
      } else run.push(op);
    }
    const done = await executeLevel(cdn, scope, run, options);
    for (const result of done) outcomes[index.get(result.op)!] = result;
    results.push(...done);
  }
  return results;
}
