import type { AFDDomain } from '@azure/arm-cdn';
import type { GlobalGateway } from '@fleet-gateway/model';
import { describeRef, refKey, type FrontDoorScope } from '../plan/afd-refs.js';
import type { CapacityLimits } from '../plan/afd-limits.js';
import { applyOperations } from './apply.js';
import type { FrontDoorClients } from '../clients/arm-clients.js';
import { classifyArmError, describeFailure, type ArmFailure } from '@fleet-gateway/arm-runtime';
import { capacityUsage, capacityViolations, measureGraph, type CapacityViolation } from '../plan/capacity.js';
import { measureAfterApply } from '../diff/capacity-after-apply.js';
import { diffFrontDoor } from '../diff/diff.js';
import { EMPTY_GRAPH, observeFrontDoor, type ObservedGraph } from '../observe/observe.js';
import { observedResources } from '../observe/observed-resources.js';
import type { Operation } from '../diff/operations.js';
import type { TerminalRefusals } from './terminal-refusals.js';
import { followSettings, type FollowSettings } from './operation-follower.js';
import { checkOwnership, type Owner } from '../plan/ownership.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import type { FrontDoorPlan } from '../plan/plan-types.js';
import { reportCustomDomains } from '../observe/domain-validation.js';
import { assessReadiness } from './readiness.js';
import { refreshValidationTokens } from './refresh-validation-tokens.js';
import type { FailureReport, ReconcileReason, ReconcileReport } from '../observe/report-types.js';
import { ArmRequestCount } from '@fleet-gateway/arm-runtime';
import { checkWafPolicy } from '../observe/waf-policy.js';

export interface ReconcileOptions extends FollowSettings {
  readonly hubIdentity: string;
  readonly scope: FrontDoorScope;
  readonly capacityLimits?: Partial<CapacityLimits>;
  /** ARM calls in flight at once, per level (default 8). */
  readonly concurrency?: number;
  /** When to look again while something is pending (default 15 s). */
  readonly pendingRequeueMs?: number;
  readonly abortSignal?: AbortSignal;
  /**
   * Awaited once, after every check passed and just before the first ARM write; nothing is written when it throws.
   * The hub adds the Gateway's finalizer here, so a Gateway that never reached Azure never carries one.
   */
  readonly beforeFirstWrite?: () => Promise<void>;
  /** The clock that decides when a custom domain's validation token is due for refresh (default Date.now). */
  readonly now?: () => number;
  /** When to look again while a custom domain awaits DNS validation (default 60 s). */
  readonly domainValidationRequeueMs?: number;
  /** This Gateway's writes ARM refused terminally: not sent again while their bodies stay the same. */
  readonly refusals?: TerminalRefusals;
  /** How long each write's long-running operation is followed (default 10 min); past it the write is in flight (pending). */
  readonly operationDeadlineMs?: number;
  /**
   * Asked before each batch of ARM writes (each level, the token refreshes): a reason stops the writes there, e.g.
   * the hub's leader Lease is no longer valid; what was not written is pending.
   */
  readonly fence?: () => string | undefined;
}

interface Refusal {
  readonly reason: ReconcileReason;
  readonly message: string;
  readonly transient?: boolean;
  readonly observed?: ObservedGraph;
  readonly capacity?: readonly CapacityViolation[];
  /** The ARM failure of a read that stopped the reconcile. */
  readonly failure?: ArmFailure;
}

function usageOf(plan: FrontDoorPlan, options: ReconcileOptions) {
  return capacityUsage(measureGraph(plan.graph), plan.graph.profile.sku, options.capacityLimits);
}

/** `update of route r failed: BadRequest (HTTP 400): …, owned by HTTPRoute ns/name`. */
export function describeFailureReport(f: FailureReport): string {
  const owners = f.owners.length === 0 ? '' : `, owned by ${f.owners.map((o) => `HTTPRoute ${o.namespace}/${o.name}`).join(', ')}`;
  const recalled = f.recalled ? ' (refused before for this exact body; not sent again until it changes)' : '';
  return `${f.action} of ${describeRef(f.ref)} failed: ${describeFailure(f.failure)}${recalled}${owners}`;
}

/** A reconcile that wrote nothing, and why. */
function refused(plan: FrontDoorPlan, requests: ArmRequestCount, refusal: Refusal, options: ReconcileOptions): ReconcileReport {
  const { reason, message, observed = EMPTY_GRAPH } = refusal;
  const hostName = observed.endpoints.find((e) => e.name === plan.graph.endpoint.ref.endpoint)?.arm.hostName;
  const frontDoorId = observed.profile?.frontDoorId;
  return {
    profile: plan.graph.profile.ref.profile,
    programmed: false,
    reason,
    message,
    outcome: refusal.transient ? { type: 'retry', reason: message } : { type: 'terminal', reason: message },
    ...(hostName ? { endpointHostName: hostName } : {}),
    ...(frontDoorId ? { frontDoorId } : {}),
    resources: [],
    pending: [],
    propagation: [],
    privateLinkAwaiting: 0,
    customDomains: [],
    failures: refusal.failure ? [{ ref: plan.graph.profile.ref, action: 'read', failure: refusal.failure, owners: [] }] : [],
    problems: plan.problems,
    capacity: refusal.capacity ?? plan.capacity,
    usage: usageOf(plan, options),
    reads: requests.reads,
    writes: 0,
  };
}

/** Checks that need the observed graph and must pass before any write: ownership, SKU, WAF policy. */
async function preflight(
  clients: FrontDoorClients,
  plan: FrontDoorPlan,
  observed: ObservedGraph,
  owner: Owner,
  options: ReconcileOptions,
  requests: ArmRequestCount,
): Promise<Refusal | undefined> {
  const { profile, securityPolicy } = plan.graph;
  if (observed.profile) {
    const ownership = checkOwnership(observed.profile.tags, owner);
    if (!ownership.owned) {
      return {
        reason: 'ForeignProfile',
        message: `profile ${profile.ref.profile} exists but is not this Gateway's: ${ownership.reason}; it is never adopted, changed or deleted`,
      };
    }
    const sku = observed.profile.sku?.name;
    if (sku !== profile.sku) {
      return {
        reason: 'SkuImmutable',
        message: `profile ${profile.ref.profile} is ${sku} and the Gateway asks for ${profile.sku}; AFD cannot change a profile's SKU in place, so nothing was changed (restore the SKU annotation, or recreate the Gateway to get a new profile)`,
        observed,
      };
    }
  }
  if (securityPolicy) {
    const waf = await checkWafPolicy(clients, securityPolicy.wafPolicyId, profile.sku, {
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      requests,
    });
    if (!waf.ok) {
      const reason = waf.reason === 'WafPolicyUnreadable' ? 'AzureReadFailed' : waf.reason;
      return {
        reason,
        message: `${waf.message}; nothing was changed`,
        transient: waf.reason === 'WafPolicyUnreadable' && waf.failure.class !== 'terminal',
        observed,
      };
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
  const requests = new ArmRequestCount();
  if (plan.capacity.length > 0)
    return refused(plan, requests, { reason: 'CapacityExceeded', message: plan.capacity.map((v) => v.message).join('; ') }, options);
  const blocking = plan.problems.filter((p) => p.blocksWrites);
  if (blocking.length > 0) return refused(plan, requests, { reason: 'InvalidPlan', message: blocking.map((p) => p.message).join('; ') }, options);
  const owner: Owner = { hubIdentity: options.hubIdentity, gateway: model.gateway };
  const common = {
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    requests,
  };
  let observed: ObservedGraph;
  try {
    observed = await observeFrontDoor(clients.cdn, options.scope, plan.graph.profile.ref.profile, owner, common);
  } catch (error) {
    const failure = classifyArmError(error);
    return refused(
      plan,
      requests,
      {
        reason: 'AzureReadFailed',
        message: `reading the AFD profile failed, nothing was changed: ${describeFailure(failure)}`,
        transient: failure.class !== 'terminal',
        failure,
      },
      options,
    );
  }
  const stop = await preflight(clients, plan, observed, owner, options, requests);
  if (stop) return refused(plan, requests, stop, options);
  const diff = diffFrontDoor(plan.graph, observed, options.scope);
  // What stays as it is (held routing, withdrawn leftovers, endpoints not ours) counts against AFD's limits too.
  const after = capacityViolations(measureAfterApply(observed, diff.operations), plan.graph.profile.sku, options.capacityLimits);
  if (after.length > 0) {
    return refused(
      plan,
      requests,
      { reason: 'CapacityExceeded', message: `${after.map((v) => v.message).join('; ')} (counting what is kept as it is)`, observed, capacity: after },
      options,
    );
  }
  if (diff.operations.length > 0) await options.beforeFirstWrite?.();
  const observedBodies = new Map(observedResources(observed, plan.graph.profile.ref.profile).map(({ ref, arm }) => [refKey(ref), arm]));
  const refusals = options.refusals;
  const results = await applyOperations(clients.cdn, options.scope, diff.operations, {
    ...common,
    ...followSettings(options),
    before: (ref) => observedBodies.get(refKey(ref)),
    ...(refusals ? { recall: (op: Operation) => refusals.recall(op) } : {}),
    ...(options.operationDeadlineMs !== undefined ? { operationDeadlineMs: options.operationDeadlineMs } : {}),
    ...(options.fence ? { fence: options.fence } : {}),
  });
  refusals?.record(results);
  const readiness = assessReadiness(diff, results, observed);
  const profile = plan.graph.profile.ref.profile;
  const fenced = options.fence?.();
  const tokens = fenced
    ? { refreshed: new Map<string, AFDDomain>(), writes: 0, failures: [] }
    : await refreshValidationTokens(clients.cdn, options.scope, profile, observed.customDomains, (options.now ?? Date.now)(), {
        ...common,
        ...followSettings(options),
        ...(options.operationDeadlineMs !== undefined ? { operationDeadlineMs: options.operationDeadlineMs } : {}),
      });
  // Each domain as ARM last answered: read, then written this pass, then refreshed (later entries win).
  const latestDomains = new Map<string, AFDDomain>([
    ...observed.customDomains.map((d): [string, AFDDomain] => [d.name.toLowerCase(), d.arm]),
    ...results.flatMap((r): [string, AFDDomain][] =>
      r.outcome === 'done' && r.op.ref.kind === 'customDomain' && r.resource ? [[r.op.ref.customDomain.toLowerCase(), r.resource as AFDDomain]] : [],
    ),
    ...tokens.refreshed,
  ]);
  const customDomains = reportCustomDomains(plan.graph.customDomains, (name) => latestDomains.get(name.toLowerCase()), readiness.endpointHostName);
  const writes = results.filter((r) => r.outcome !== 'skipped').length + tokens.writes;
  const pending = [...readiness.pending, ...tokens.failures];
  const base = {
    profile,
    ...readiness,
    pending,
    customDomains,
    problems: plan.problems,
    capacity: plan.capacity,
    usage: usageOf(plan, options),
    reads: requests.reads,
    writes,
  };
  // A failure that holds back only some HTTPRoutes is theirs: their parent entries say so, the rest of the Gateway is
  // programmed. Gateway API's Programmed on a Gateway speaks of the Gateway's own configuration reaching the data
  // plane, and a route's trouble is told on that route's parent status; turning every team's Gateway False for one
  // team's refused resource would hide that the others are served. So the report stays `programmed` and its message
  // names the refused resource, ARM's code and the route. A failure of the Gateway's own resources (profile, endpoint,
  // a listener's domain, the security policy, a delete) is the Gateway's: AzureWriteFailed.
  const gatewayFailures = readiness.failures.filter((f) => f.owners.length === 0);
  if (gatewayFailures.length > 0) {
    const terminal = gatewayFailures.some((f) => f.failure.class === 'terminal');
    const message = readiness.failures.map(describeFailureReport).join('; ');
    return {
      ...base,
      programmed: false,
      reason: 'AzureWriteFailed',
      message,
      outcome: terminal ? { type: 'terminal', reason: message } : { type: 'retry', reason: message },
    };
  }
  const refusedByAzure =
    readiness.failures.length === 0
      ? undefined
      : `${readiness.failures.length} resource(s) refused by Azure, held back for the HTTPRoutes named (the rest is programmed): ${readiness.failures.map(describeFailureReport).join('; ')}`;
  // A route's transient failure is retried; a terminal one is looked at again later (and, for a refused body, not sent
  // again until the route changes: see TerminalRefusals).
  const refusedOutcome =
    readiness.failures.length === 0 ? undefined : readiness.failures.some((f) => f.failure.class !== 'terminal') ? ('retry' as const) : ('terminal' as const);
  if (pending.length > 0) {
    const message = [...pending, ...(refusedByAzure ? [refusedByAzure] : [])].join('; ');
    return {
      ...base,
      programmed: false,
      reason: 'Pending',
      message,
      outcome: { type: 'requeue-after', afterMs: options.pendingRequeueMs ?? 15_000, reason: message },
    };
  }
  const host = readiness.endpointHostName ? ` on ${readiness.endpointHostName}` : '';
  const message = [`Azure Front Door configuration is ready${host}`, ...(refusedByAzure ? [refusedByAzure] : [])].join('; ');
  if (refusedOutcome) return { ...base, programmed: true, reason: 'Programmed', message, outcome: { type: refusedOutcome, reason: message } };
  // The default domain serves meanwhile; the listeners say what each unvalidated domain needs.
  const awaiting = customDomains.filter((d) => !d.validated);
  if (awaiting.length > 0) {
    const why = `${awaiting.length} custom domain(s) await DNS validation: ${awaiting.map((d) => `${d.hostName} ${d.validationState}`).join(', ')}`;
    return {
      ...base,
      programmed: true,
      reason: 'Programmed',
      message: `${message}; ${why}`,
      outcome: { type: 'requeue-after', afterMs: options.domainValidationRequeueMs ?? 60_000, reason: why },
    };
  }
  return { ...base, programmed: true, reason: 'Programmed', message, outcome: { type: 'done' } };
}
