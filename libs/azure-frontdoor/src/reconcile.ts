import type { GlobalGateway } from '@fleet-gateway/model';
import { describeRef, type FrontDoorScope } from './afd-refs.js';
import type { CapacityLimits } from './afd-limits.js';
import { applyOperations } from './apply.js';
import type { FrontDoorClients } from './arm-clients.js';
import { classifyArmError, describeFailure } from './arm-errors.js';
import { diffFrontDoor } from './diff.js';
import { EMPTY_GRAPH, observeFrontDoor, type ObservedGraph } from './observe.js';
import { checkOwnership, type Owner } from './ownership.js';
import { planFrontDoor } from './plan-front-door.js';
import type { FrontDoorPlan } from './plan-types.js';
import { assessReadiness } from './readiness.js';
import type { ReconcileReason, ReconcileReport } from './report-types.js';
import { checkWafPolicy } from './waf-policy.js';

export interface ReconcileOptions {
  readonly hubIdentity: string;
  readonly scope: FrontDoorScope;
  readonly capacityLimits?: Partial<CapacityLimits>;
  /** ARM calls in flight at once, per level (default 8). */
  readonly concurrency?: number;
  readonly pollIntervalMs?: number;
  /** When to look again while something is pending (default 15 s). */
  readonly pendingRequeueMs?: number;
  readonly abortSignal?: AbortSignal;
}

function refused(plan: FrontDoorPlan, reason: ReconcileReason, message: string, transient = false, observed: ObservedGraph = EMPTY_GRAPH): ReconcileReport {
  const hostName = observed.endpoints.find((e) => e.name === plan.graph.endpoint.ref.endpoint)?.arm.hostName;
  return {
    profile: plan.graph.profile.ref.profile,
    programmed: false,
    reason,
    message,
    outcome: transient ? { type: 'retry', reason: message } : { type: 'terminal', reason: message },
    ...(hostName ? { endpointHostName: hostName } : {}),
    resources: [],
    pending: [],
    propagation: [],
    failures: [],
    problems: plan.problems,
    capacity: plan.capacity,
    writes: 0,
  };
}

/** Checks that need the observed graph and must pass before any write: ownership, SKU, WAF policy. */
async function preflight(clients: FrontDoorClients, plan: FrontDoorPlan, observed: ObservedGraph, owner: Owner, options: ReconcileOptions): Promise<ReconcileReport | undefined> {
  const { profile, securityPolicy } = plan.graph;
  if (observed.profile) {
    const ownership = checkOwnership(observed.profile.tags, owner);
    if (!ownership.owned) {
      return refused(plan, 'ForeignProfile', `profile ${profile.ref.profile} exists but is not this Gateway's: ${ownership.reason}; it is never adopted, changed or deleted`);
    }
    const sku = observed.profile.sku?.name;
    if (sku !== profile.sku) {
      return refused(
        plan,
        'SkuImmutable',
        `profile ${profile.ref.profile} is ${sku} and the Gateway asks for ${profile.sku}; AFD cannot change a profile's SKU in place, so nothing was changed (restore the SKU annotation, or recreate the Gateway to get a new profile)`,
        false,
        observed,
      );
    }
  }
  if (securityPolicy) {
    const waf = await checkWafPolicy(clients, securityPolicy.wafPolicyId, profile.sku, options.abortSignal);
    if (!waf.ok) {
      const reason = waf.reason === 'WafPolicyUnreadable' ? 'AzureReadFailed' : waf.reason;
      return refused(plan, reason, `${waf.message}; nothing was changed`, waf.reason === 'WafPolicyUnreadable' && waf.failure.class !== 'terminal', observed);
    }
  }
  return undefined;
}

/**
 * One reconcile of one Gateway: plan (pure), capacity and plan checks, observe, ownership/SKU/WAF checks, diff,
 * ordered apply, readiness. Nothing is written unless every check passes; a failed read writes nothing
 * (fail-static); an identical graph writes nothing.
 */
export async function reconcileFrontDoor(clients: FrontDoorClients, model: GlobalGateway, options: ReconcileOptions): Promise<ReconcileReport> {
  const plan = planFrontDoor(model, { hubIdentity: options.hubIdentity, ...(options.capacityLimits ? { capacityLimits: options.capacityLimits } : {}) });
  if (plan.capacity.length > 0) return refused(plan, 'CapacityExceeded', plan.capacity.map((v) => v.message).join('; '));
  const blocking = plan.problems.filter((p) => p.blocksWrites);
  if (blocking.length > 0) return refused(plan, 'InvalidPlan', blocking.map((p) => p.message).join('; '));
  const owner: Owner = { hubIdentity: options.hubIdentity, gateway: model.gateway };
  let observed: ObservedGraph;
  try {
    observed = await observeFrontDoor(clients.cdn, options.scope, plan.graph.profile.ref.profile, owner, {
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
  } catch (error) {
    const failure = classifyArmError(error);
    return refused(plan, 'AzureReadFailed', `reading the AFD profile failed, nothing was changed: ${describeFailure(failure)}`, failure.class !== 'terminal');
  }
  const stop = await preflight(clients, plan, observed, owner, options);
  if (stop) return stop;
  const diff = diffFrontDoor(plan.graph, observed, options.scope);
  const results = await applyOperations(clients.cdn, options.scope, diff.operations, {
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  const readiness = assessReadiness(diff, results, observed);
  const writes = results.filter((r) => r.outcome !== 'skipped').length;
  const base = { profile: plan.graph.profile.ref.profile, ...readiness, problems: plan.problems, capacity: plan.capacity, writes };
  if (readiness.failures.length > 0) {
    const terminal = readiness.failures.some((f) => f.failure.class === 'terminal');
    const message = readiness.failures.map((f) => `${f.action} of ${describeRef(f.ref)} failed: ${describeFailure(f.failure)}`).join('; ');
    return { ...base, programmed: false, reason: 'AzureWriteFailed', message, outcome: terminal ? { type: 'terminal', reason: message } : { type: 'retry', reason: message } };
  }
  if (readiness.pending.length > 0) {
    const message = readiness.pending.join('; ');
    return { ...base, programmed: false, reason: 'Pending', message, outcome: { type: 'requeue-after', afterMs: options.pendingRequeueMs ?? 15_000, reason: message } };
  }
  const host = readiness.endpointHostName ? ` on ${readiness.endpointHostName}` : '';
  return { ...base, programmed: true, reason: 'Programmed', message: `Azure Front Door configuration is ready${host}`, outcome: { type: 'done' } };
}
