import type { AFDDomain, AFDEndpoint, AFDOrigin, AFDOriginGroup, CdnManagementClient, Profile, Route, Rule, SecurityPolicy } from '@azure/arm-cdn';
import { describeRef, type AfdRef, type FrontDoorScope } from '../plan/afd-refs.js';
import { classifyArmError, describeFailure, isNotFound, type ArmFailure } from '@fleet-gateway/arm-runtime';
import { mapBounded } from '../observe/observe.js';
import { operationDependencies } from './operation-dependencies.js';
import { operationDeadline } from './operation-deadline.js';
import { ArmWriteFencedError } from '@fleet-gateway/arm-runtime';
import { orderOperations, type Operation } from '../diff/operations.js';
import type { ArmRequestCount } from '@fleet-gateway/arm-runtime';

export interface ApplyOptions {
  /** Writes in flight at once within one level (default 8). */
  readonly concurrency?: number;
  /** Long-running operation poll interval when ARM sends no Retry-After (SDK default 2000 ms). */
  readonly pollIntervalMs?: number;
  readonly abortSignal?: AbortSignal;
  /** Counts the writes and the polls of their long-running operations. */
  readonly requests?: ArmRequestCount;
  /** A resource's body as observed before this apply: who named a resource about to be deleted (default: unknown). */
  readonly before?: (ref: AfdRef) => object | undefined;
  /** A terminal refusal ARM gave this exact write before: the write is not sent again and fails as it did. */
  readonly recall?: (op: Operation) => ArmFailure | undefined;
  /**
   * How long one write and its long-running operation are followed (default 10 min). Past it the write is
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
  | { readonly op: Operation; readonly outcome: 'done'; readonly resource?: { provisioningState?: string; deploymentStatus?: string } & object }
  /** `recalled`: not sent; ARM refused this exact write terminally before (see `ApplyOptions.recall`). */
  | { readonly op: Operation; readonly outcome: 'failed'; readonly failure: ArmFailure; readonly recalled?: boolean }
  /** `fenced`: stopped by the fence (this replica may no longer write), not by a failure it depends on. */
  | { readonly op: Operation; readonly outcome: 'skipped'; readonly because: string; readonly fenced?: boolean }
  | { readonly op: Operation; readonly outcome: 'in-flight'; readonly because: string };

type Written = { provisioningState?: string; deploymentStatus?: string } & object;

async function put(cdn: CdnManagementClient, rg: string, op: Operation, lro: object): Promise<Written> {
  const ref = op.ref;
  switch (ref.kind) {
    case 'profile':
      return cdn.profiles.beginCreateAndWait(rg, ref.profile, op.body as Profile, lro);
    case 'endpoint':
      return cdn.afdEndpoints.beginCreateAndWait(rg, ref.profile, ref.endpoint, op.body as AFDEndpoint, lro);
    case 'customDomain':
      return cdn.afdCustomDomains.beginCreateAndWait(rg, ref.profile, ref.customDomain, op.body as AFDDomain, lro);
    case 'originGroup':
      return cdn.afdOriginGroups.beginCreateAndWait(rg, ref.profile, ref.originGroup, op.body as AFDOriginGroup, lro);
    case 'origin':
      return cdn.afdOrigins.beginCreateAndWait(rg, ref.profile, ref.originGroup, ref.origin, op.body as AFDOrigin, lro);
    case 'route':
      return cdn.routes.beginCreateAndWait(rg, ref.profile, ref.endpoint, ref.route, op.body as Route, lro);
    case 'ruleSet':
      return cdn.ruleSets.create(rg, ref.profile, ref.ruleSet, lro);
    case 'rule':
      return cdn.rules.beginCreateAndWait(rg, ref.profile, ref.ruleSet, ref.rule, op.body as Rule, lro);
    case 'securityPolicy':
      return cdn.securityPolicies.beginCreateAndWait(rg, ref.profile, ref.securityPolicy, op.body as SecurityPolicy, lro);
  }
}

async function remove(cdn: CdnManagementClient, rg: string, op: Operation, lro: object): Promise<void> {
  const ref = op.ref;
  switch (ref.kind) {
    case 'profile':
      return cdn.profiles.beginDeleteAndWait(rg, ref.profile, lro);
    case 'endpoint':
      return cdn.afdEndpoints.beginDeleteAndWait(rg, ref.profile, ref.endpoint, lro);
    case 'customDomain':
      return cdn.afdCustomDomains.beginDeleteAndWait(rg, ref.profile, ref.customDomain, lro);
    case 'originGroup':
      return cdn.afdOriginGroups.beginDeleteAndWait(rg, ref.profile, ref.originGroup, lro);
    case 'origin':
      return cdn.afdOrigins.beginDeleteAndWait(rg, ref.profile, ref.originGroup, ref.origin, lro);
    case 'route':
      return cdn.routes.beginDeleteAndWait(rg, ref.profile, ref.endpoint, ref.route, lro);
    case 'ruleSet':
      return cdn.ruleSets.beginDeleteAndWait(rg, ref.profile, ref.ruleSet, lro);
    case 'rule':
      return cdn.rules.beginDeleteAndWait(rg, ref.profile, ref.ruleSet, ref.rule, lro);
    case 'securityPolicy':
      return cdn.securityPolicies.beginDeleteAndWait(rg, ref.profile, ref.securityPolicy, lro);
  }
}

async function execute(cdn: CdnManagementClient, scope: FrontDoorScope, op: Operation, options: ApplyOptions): Promise<OperationResult> {
  const deadline = operationDeadline(options.abortSignal, options.operationDeadlineMs);
  const lro = {
    ...(options.pollIntervalMs === undefined ? {} : { updateIntervalInMs: options.pollIntervalMs }),
    abortSignal: deadline.signal,
    ...(options.requests ? { onResponse: options.requests.onResponse } : {}),
  };
  try {
    if (op.action === 'delete') {
      await remove(cdn, scope.resourceGroup, op, lro);
      return { op, outcome: 'done' };
    }
    return { op, outcome: 'done', resource: await put(cdn, scope.resourceGroup, op, lro) };
  } catch (error) {
    // Gone already is what a delete wants.
    if (op.action === 'delete' && isNotFound(error)) return { op, outcome: 'done' };
    if (error instanceof ArmWriteFencedError) return { op, outcome: 'skipped', because: `not attempted: ${error.reason}`, fenced: true };
    if (deadline.expired()) {
      return { op, outcome: 'in-flight', because: `ARM had not finished the ${op.action} within ${deadline.deadlineMs / 1000} s; it is observed again` };
    }
    return { op, outcome: 'failed', failure: classifyArmError(error) };
  }
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
    const done = await mapBounded(run, options.concurrency ?? 8, (op) => execute(cdn, scope, op, options));
    for (const result of done) outcomes[index.get(result.op)!] = result;
    results.push(...done);
  }
  return results;
}
