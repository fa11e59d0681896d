import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { readDeletionPolicy, type Sku } from '@fleet-gateway/annotations';
import type { Condition } from '@fleet-gateway/api-types';
import {
  deleteFrontDoor,
  profileName,
  planProblemsByRoute,
  reconcileFrontDoor,
  TerminalRefusals,
  type CapacityLimits,
  type FrontDoorClients,
  type FrontDoorScope,
  type FailureReport,
  type ReconcileReport,
} from '@fleet-gateway/azure-frontdoor';
import {
  done,
  findCondition,
  isKubeRequestFailure,
  isNotFound,
  KubeApiError,
  objectKey,
  objectPath,
  requeueAfter,
  retry,
  type BackoffOptions,
  type CheckResult,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  type Logger,
  type ReconcileContext,
  type ReconcileOutcome,
  type ReconcileRequest,
  type StatusWriter,
  withJitter,
} from '@fleet-gateway/controller';
import { internalServiceExports, type CachedInternalServiceExport } from '@fleet-gateway/fleet-hub';
import { withArmFlow } from '@fleet-gateway/arm-runtime';
import {
  modelHash,
  resolveGateway,
  type GlobalGateway,
  type HubInputs,
  type ListenerSetVerdict,
  type ResolveResult,
  type RouteVerdict,
  type VerdictCondition,
} from '@fleet-gateway/model';
import { recordAcceptedSpecs } from './accepted-spec-records.js';
import { accessHint, type AzureIdentityDescription } from './azure-access-hints.js';
import { DEFAULT_DRIFT_CHECK, driftCheckPeriodMs, driftCheckReads, type DriftCheckPeriod } from './drift-check-period.js';
import { exportsUsedBy, entryRule, frontDoorEntry } from './export-entries.js';
import { gateways, httpRoutes, listenerSets, type CachedGateway, type CachedHTTPRoute } from './gateway-api-resources.js';
import { hasGatewayFinalizer, setGatewayFinalizer } from './gateway-finalizer.js';
import {
  EXPORTS_BY_GATEWAY,
  ROUTES_BY_STATUS_LISTENER_SET,
  ROUTES_BY_STATUS_PARENT,
  ROUTES_WITH_LISTENER_SET_STATUS,
  statusParentListenerSetsOf,
  WITH_LISTENER_SET_STATUS,
} from './gateway-indexes.js';
import { collectHubInputs, ourGateways, type GatewayStores } from './gateway-inputs.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { describeProgramming, gatewayStatus, servingGeneration, type ProgrammedState } from './gateway-status.js';
import { listenerSetStatus } from './listener-set-status.js';
import { AFD_PROFILES_PER_SUBSCRIPTION, profileQuotaVerdict } from './profile-quota.js';
import {
  AfdRetiredMessages,
  currentRequestOf,
  privateLinkRequestsToIssue,
  requestsAskedAgain,
  type GatewayOwner,
  type RequestBinding,
} from './private-link-requests.js';
import { ProgrammingTasks, type ProgrammingControl, type ProgrammingTask } from './programming-tasks.js';
import { azureProgrammedCondition, routeParentEntries, routeParentRule, routeVerdictsAsServed, withinParentLimit } from './route-status.js';
import { StatusWriteBackoff } from './status-write-backoff.js';

/** What the hub needs to program Azure; absent when this hub runs with `--enable-afd=false`. */
export interface AzureFrontDoorAccess {
  readonly clients: FrontDoorClients;
  readonly scope: FrontDoorScope;
  /** `hubIdentityOf(...)`: the ownership tag value of this hub. */
  readonly hubIdentity: string;
  readonly identity: AzureIdentityDescription;
  readonly capacityLimits?: Partial<CapacityLimits>;
  /** How many AFD profiles this hub may hold in the subscription (default 500, AFD's quota): one per Gateway. */
  readonly profileQuota?: number;
  readonly pollIntervalMs?: number;
  /** How soon a Gateway with something pending is looked at again (default 15 s). */
  readonly pendingRequeueMs?: number;
  /**
   * How long a programmed Gateway whose model did not change is trusted without reading Azure again (default
   * DEFAULT_DRIFT_CHECK, automatic from the read budget): resyncs within it cost no ARM request; when it ends (plus up
   * to 10 % jitter, so the checks spread) the Gateway is requeued, and drift made outside the hub is observed and corrected.
   */
  readonly driftCheck?: DriftCheckPeriod;
  /**
   * How long a reconcile waits for the programming it started before it returns (default 2 s): a programming still
   * running then goes on apart from the controller's workers, and the Gateway is reconciled again when it ends.
   */
  readonly programmingWaitMs?: number;
  /** How soon a terminal Azure failure (authorization, missing resource group) is tried again (default 5 min). */
  readonly terminalRecheckMs?: number;
  /** How long a write ARM refused for its body is not sent again while the body stays the same (default 1 h). */
  readonly refusalRecheckMs?: number;
  /**
   * Asked before each batch of ARM writes: a reason (this replica's leader Lease is no longer valid) stops the writes
   * there. Absent, writes are never fenced (a single replica).
   */
  readonly writeFence?: () => string | undefined;
}

export interface GatewayReconcilerOptions {
  readonly client: KubeClient;
  readonly stores: GatewayStores;
  /** Writes Gateway, HTTPRoute and InternalServiceExport status under the hub's Gateway field manager. */
  readonly statusWriter: StatusWriter;
  readonly events: EventRecorder;
  readonly defaultSku: Sku;
  readonly azure?: AzureFrontDoorAccess;
  /** While this fails (the installed Fleet CRDs prune the extension fields), nothing is written. */
  readonly prerequisite?: { check(): CheckResult };
  readonly metrics?: GatewayMetrics;
  /** The Private Link request message generator (default: 40 random base64url characters after `fleet-afd-`). */
  readonly newRequestMessage?: () => string;
  readonly now?: () => Date;
  /** Backoff of one object's failed status write (default 1 s doubling to 5 min). */
  readonly statusBackoff?: BackoffOptions;
  /** Where each Gateway's programming of Azure runs (default: a set of its own). */
  readonly programming?: ProgrammingTasks;
}

const PREREQUISITE_RETRY_MS = 5_000;
const LIST_KEYS = { listeners: ['name'] };

/** A request message AFD carries on the private endpoint connection: unguessable, and short of AFD's 140. */
export function randomRequestMessage(): string {
  return `fleet-afd-${randomBytes(30).toString('base64url')}`;
}

interface Programmed {
  readonly uid: string;
  readonly hash: string;
  /** When Azure is read again although the model did not change (ms). */
  readonly checkAt: number;
  readonly report: ReconcileReport;
}

/**
 * One reconcile per Gateway key: resolve (pure) -> Private Link request messages -> plan/apply/observe through
 * libs/azure-frontdoor -> status of the Gateway, its HTTPRoutes' parent entries and its exports. Deletion goes
 * through the finalizer: profile removed after the ownership check (or orphaned on request), then the finalizer.
 */
/** The status gatewayStatus computes for a Gateway in one reconcile. */
type GatewayStatusNow = ReturnType<typeof gatewayStatus>;

export function gatewayReconciler(options: GatewayReconcilerOptions) {
  const { client, stores, statusWriter, events, azure } = options;
  const now = options.now ?? (() => new Date());
  const newMessage = options.newRequestMessage ?? randomRequestMessage;
  const programmed = new Map<string, Programmed>();
  /** Request messages this process made, by Gateway UID and connection key (member, PLS id, message replaced). */
  const issuedMessages = new Map<string, string>();
  const afdRetired = new AfdRetiredMessages();
  const bindingOf = (owner: GatewayOwner): RequestBinding => ({ ...(azure ? { hubIdentity: azure.hubIdentity } : {}), retiredByAfd: afdRetired.of(owner) });
  /** Per Gateway: the writes ARM refused for their bodies, not sent again until the body changes. */
  const refusals = new Map<string, TerminalRefusals>();
  /** Status writes that failed, per Gateway and object: each retried on its own backoff. */
  const statusBackoff = new StatusWriteBackoff(options.statusBackoff);
  const programming = options.programming ?? new ProgrammingTasks(() => now().getTime());

  return async (request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileOutcome> => {
    const { logger } = context;
    if (options.prerequisite && !options.prerequisite.check().ok) {
      return requeueAfter(PREREQUISITE_RETRY_MS, 'the installed Fleet CRDs lack the extension fields');
    }
    const key = `${request.namespace}/${request.name}`;
    const gateway = stores.gateways.getByName(request.name, request.namespace);
    if (!gateway) {
      stopProgramming(key, 'the Gateway was deleted');
      programmed.delete(key);
      refusals.delete(key);
      statusBackoff.forget(`${key}|`);
      options.metrics?.forget(key);
      // A Gateway deleted without our finalizer (never written to Azure) may still have issued request messages.
      try {
        await releaseExports({ key, uid: '' }, logger);
      } catch (error) {
        if (isKubeRequestFailure(error)) return retry(error as Error);
        throw error;
      }
      return done();
    }
    const owner: GatewayOwner = { key, uid: gateway.metadata.uid ?? '' };
    try {
      if (gateway.metadata.deletionTimestamp) return await finalize(gateway, owner, logger, context.signal);
      return await reconcileLive(gateway, owner, logger, context);
    } catch (error) {
      if (isKubeRequestFailure(error)) {
        const failure = error as Error & { statusCode?: number; code?: string };
        logger.info('a Kubernetes API request failed; retrying', { status: failure.statusCode ?? failure.code, error: failure.message });
        return retry(failure);
      }
      throw error;
    }
  };

  async function reconcileLive(gateway: CachedGateway, owner: GatewayOwner, logger: Logger, context: ReconcileContext): Promise<ReconcileOutcome> {
    const started = performance.now();
    const inputs = collectHubInputs(stores, gateway, options.defaultSku);
    let result = resolveGateway(inputs);
    if (result.verdicts.ignored || !result.verdicts.gateway) {
      logger.debug('not this controller’s Gateway', { why: result.verdicts.ignored });
      return done();
    }
    const accepted = findCondition(result.verdicts.gateway.conditions, 'Accepted');
    const resolved = {
      step: 'resolve',
      accepted: accepted?.status,
      reason: accepted?.reason,
      routes: result.verdicts.routes.length,
      backends: result.model?.backends.length ?? 0,
      durationMs: Math.round(performance.now() - started),
    };
    // Resyncs resolve every Gateway again: info when there is a model other than the programmed one, debug otherwise
    // (a Gateway without a model says what changed when its status is written).
    const resolvedHash = result.model && modelHash(result.model);
    const changed = resolvedHash !== undefined && programmed.get(owner.key)?.hash !== resolvedHash;
    logger[changed ? 'info' : 'debug']('resolved', resolved);

    const generation = gateway.metadata.generation ?? 0;
    const previous = findCondition(gateway.status?.conditions as Condition[] | undefined, 'Programmed');
    const programmedBefore = hasGatewayFinalizer(gateway);
    let state: ProgrammedState;
    let outcome: ReconcileOutcome = done();
    const quota =
      result.model && azure
        ? profileQuotaVerdict(ourGateways(stores), gateway, azure.profileQuota ?? AFD_PROFILES_PER_SUBSCRIPTION)
        : { within: true as const };
    if (!result.model) {
      state = programmedBefore ? { kind: 'held', previous, servingGeneration: servingGeneration(previous) ?? generation } : { kind: 'not-accepted' };
      if (programmedBefore) {
        events.record(
          gateway,
          'Warning',
          'InvalidSpec',
          'Hold',
          `generation ${generation} is not accepted; Azure keeps serving the configuration programmed before (${accepted?.reason ?? 'Invalid'})`,
        );
      }
    } else if (!azure) {
      state = { kind: 'disabled', previous: programmedBefore ? previous : undefined };
      if (programmedBefore)
        events.record(
          gateway,
          'Warning',
          'AzureFrontDoorDisabled',
          'Hold',
          'Azure Front Door reconciliation is disabled on this hub; this Gateway’s AFD profile is neither changed nor deleted',
        );
    } else if (!quota.within) {
      state = { kind: 'over-quota', message: quota.message };
      events.record(gateway, 'Warning', 'ProfileQuotaExceeded', 'Program', quota.message);
      logger.warn('over the AFD profile quota; nothing is written to Azure', { step: 'plan', quota: azure.profileQuota ?? AFD_PROFILES_PER_SUBSCRIPTION });
      // Deleting an older Gateway frees a place without an event on this one: it is looked at again now and then.
      outcome = requeueAfter(azure.terminalRecheckMs ?? 5 * 60_000, quota.message);
    } else {
      const issued = await issuePrivateLinkRequests(inputs, result, owner, logger);
      const model = issued.model;
      if (!model) throw new Error('the model vanished after issuing request messages; expected issuing to change only connection states');
      // Issuing nothing leaves the resolved model, whose hash is known already.
      const hash = issued === result && resolvedHash !== undefined ? resolvedHash : modelHash(model);
      result = issued;
      const programmedNow = await programFrontDoor(gateway, model, hash, owner, logger, context, azure);
      if ('running' in programmedNow) {
        const message = describeProgramming(programmedNow.running.phase);
        const serving = previous?.status === 'True' && previous.observedGeneration === generation ? previous : undefined;
        state = { kind: 'programming', message, serving };
        logger.info('Azure is being programmed; the Gateway is reconciled again when it has finished', {
          step: 'apply',
          phase: programmedNow.running.phase.kind,
        });
        // Its end brings the Gateway back (ReconcileContext.detach) and nothing else must: a timer set here would fire
        // after the report was taken and start the programming over.
        outcome = done();
      } else {
        const report = withAccessHints(programmedNow.report, azure);
        await publishFrontDoorIds(gateway, model, owner, report, logger);
        await markAskedAgain(owner, report, logger);
        afdRetired.record(owner, report, (k) => stores.internalServiceExports.get(k));
        // Only a model Azure took (programmed, or on its way) is a programmed generation worth keeping on an invalid edit.
        if (report.reason === 'Programmed' || report.reason === 'Pending') await recordAcceptedSpecs(client, inputs, result, report, logger);
        state = { kind: 'reconciled', report };
        outcome = withDriftCheck(outcomeOf(report, gateway, logger, azure), owner);
      }
    }
    // After the Azure step, so each route's entry carries the Azure outcome of what it needs (and reports no withdrawal
    // that step did not make); each object on its own. While Azure is being programmed they stay as they are, until
    // the reconcile that takes the programming's report.
    if (state.kind !== 'programming')
      await writeRouteStatuses(
        gateway,
        owner,
        routeVerdictsAsServed(result.verdicts.routes, state),
        state.kind === 'reconciled' ? state.report : undefined,
        logger,
        result.verdicts.listenerSets ?? [],
      );
    // The Gateway's status once: the ListenerSets' Programmed follows the one written on the Gateway.
    const status = gatewayStatusOf(gateway, result, state);
    if (status) await writeListenerSetStatuses(gateway, result, state, status, owner, logger);
    await writeGatewayStatus(gateway, result, status, logger);
    options.metrics?.record(owner.key, state);
    return withStatusRetries(outcome, owner);
  }

  /** The outcome, brought forward to when the first failed status write of this Gateway is due again. */
  function withStatusRetries(outcome: ReconcileOutcome, owner: GatewayOwner): ReconcileOutcome {
    const due = statusBackoff.nextDueIn(`${owner.key}|`, now().getTime());
    if (due === undefined) return outcome;
    if (outcome.kind === 'done' || (outcome.kind === 'requeue-after' && due < outcome.afterMs)) return requeueAfter(due, 'status writes to try again');
    return outcome;
  }

  /**
   * Writes one object's status unless its earlier failure's backoff has not passed. A refusal or an unanswered request
   * is this object's alone: an Event on it, a metric, a warning, and a retry on its own backoff; never thrown, so
   * neither Azure nor any other object's status waits for it.
   */
  async function writeOwnStatus(object: KubeObject, kind: string, owner: GatewayOwner, logger: Logger, write: () => Promise<boolean>): Promise<boolean> {
    const key = `${owner.key}|${kind}|${objectKey(object)}`;
    const at = now().getTime();
    if (!statusBackoff.isDue(key, at)) return false;
    try {
      const written = await write();
      statusBackoff.succeeded(key);
      return written;
    } catch (error) {
      if (!isKubeRequestFailure(error)) throw error;
      const delayMs = statusBackoff.failed(key, at);
      const failure = error as Error & { code?: string };
      const reason = error instanceof KubeApiError ? error.reason : (failure.code ?? 'Unknown');
      const cause = failure.message;
      options.metrics?.statusWriteFailed(kind, reason);
      logger.warn(`the ${kind} status write failed; retrying that object alone`, {
        step: 'status',
        object: objectKey(object),
        reason,
        cause,
        retryInMs: delayMs,
      });
      events.record(
        object,
        'Warning',
        'StatusWriteFailed',
        'WriteStatus',
        `the status for Gateway ${owner.key} could not be written (${cause}); retrying in ${Math.ceil(delayMs / 1000)} s`,
      );
      return false;
    }
  }

  /** Issues the missing request messages and resolves again with the exports as written. */
  async function issuePrivateLinkRequests(inputs: HubInputs, result: ResolveResult, owner: GatewayOwner, logger: Logger): Promise<ResolveResult> {
    const model = result.model;
    if (!model) return result;
    const withRequests = stores.internalServiceExports.byIndex(EXPORTS_BY_GATEWAY, owner.key);
    // A cache that has not caught up with a message written a moment ago must not make a second one for that PLS.
    const messageFor = (connection: string) => {
      const key = `${owner.uid}|${connection}`;
      const message = issuedMessages.get(key) ?? newMessage();
      issuedMessages.set(key, message);
      return message;
    };
    const toIssue = privateLinkRequestsToIssue(model, owner, (k) => stores.internalServiceExports.get(k), withRequests, messageFor, now(), bindingOf(owner));
    if (toIssue.length === 0) return result;
    const written = new Map<string, CachedInternalServiceExport>();
    for (const { export: cached, request } of toIssue) {
      await writeOwnStatus(cached, 'InternalServiceExport', owner, logger, async () => {
        const ise = await client.get<CachedInternalServiceExport>(objectPath(internalServiceExports, cached.metadata.name, cached.metadata.namespace));
        if (currentRequestOf(ise, owner, bindingOf(owner))) {
          written.set(objectKey(ise), ise);
          return false;
        }
        const rule = entryRule(owner);
        if ((ise.status?.privateLinkRequests ?? []).some(rule.isOurs))
          logger.info('replacing a request entry of this Gateway name: an earlier Gateway, a retired message or one without its binding', {
            export: objectKey(ise),
          });
        const outcome = await statusWriter.splice(internalServiceExports, ise, { listPath: ['privateLinkRequests'], entries: [request], rule });
        if (outcome.written) written.set(objectKey(ise), outcome.object);
        logger.info('issued a Private Link request message', {
          step: 'private-link',
          export: objectKey(ise),
          privateLinkService: ise.spec?.privateLinkService?.resourceID,
        });
        return outcome.written;
      });
    }
    const exports = (inputs.internalServiceExports ?? []).map((ise) => written.get(objectKey(ise)) ?? ise);
    return resolveGateway({ ...inputs, internalServiceExports: exports });
  }

  /**
   * The report of programming the model: that of the programming that ended since the last reconcile, the programmed
   * one while it is trusted, else that of the Gateway's programming task for this model (joined if it runs, started
   * otherwise and waited for up to `programmingWaitMs`), or the task while it still runs.
   */
  async function programFrontDoor(
    gateway: CachedGateway,
    model: GlobalGateway,
    hash: string,
    owner: GatewayOwner,
    logger: Logger,
    context: ReconcileContext,
    access: AzureFrontDoorAccess,
  ): Promise<{ readonly report: ReconcileReport } | { readonly running: ProgrammingTask }> {
    // A programming that ended since the last reconcile: its report, once.
    const ended = programming.takeEnded(owner.key, hash);
    if (ended) return { report: ended };
    const last = programmed.get(owner.key);
    if (last && last.uid === owner.uid && last.hash === hash && now().getTime() < last.checkAt) {
      logger.debug('model unchanged since it was programmed; Azure not read', { step: 'plan' });
      return { report: last.report };
    }
    // Its ARM requests are this Gateway's flow: the limiter serves Gateways in turn, not in the order they queued.
    const { task, started } = programming.start(owner.key, hash, context.signal, (control) =>
      withArmFlow(owner.key, () => runProgramming(gateway, model, hash, owner, logger, control, access)),
    );
    if (started) {
      // Fast programmings end within the reconcile as before; a long one frees the worker, and its end brings the
      // Gateway back to take its report (only then: a report taken here must not start the Gateway over).
      const waited = new AbortController();
      // A programming that waits for Azure's operations longer than that (Front Door's take tens of seconds) frees the
      // worker as soon as it says so: a cold start of many Gateways starts them all at once, not two seconds each.
      const waitMs = access.programmingWaitMs ?? 2_000;
      await Promise.race([task.ended, task.waitsLongerThan(waitMs, waited.signal), delay(waitMs, undefined, { signal: waited.signal }).catch(() => undefined)]);
      waited.abort();
      if (!task.settled) context.detach(task.ended);
    }
    return task.settled ? { report: programming.take(owner.key, task) } : { running: task };
  }

  /** One programming of the model (reconcileFrontDoor), run by the Gateway's programming task. */
  async function runProgramming(
    gateway: CachedGateway,
    model: GlobalGateway,
    hash: string,
    owner: GatewayOwner,
    logger: Logger,
    control: ProgrammingControl,
    access: AzureFrontDoorAccess,
  ): Promise<ReconcileReport> {
    const started = performance.now();
    const leaderFence = access.writeFence;
    const report = await reconcileFrontDoor(access.clients, model, {
      hubIdentity: access.hubIdentity,
      scope: access.scope,
      abortSignal: control.signal,
      ...(access.capacityLimits ? { capacityLimits: access.capacityLimits } : {}),
      ...(access.pollIntervalMs !== undefined ? { pollIntervalMs: access.pollIntervalMs } : {}),
      ...(access.pendingRequeueMs !== undefined ? { pendingRequeueMs: access.pendingRequeueMs } : {}),
      refusals: refusalsOf(owner, access),
      fence: leaderFence ? () => control.fence() ?? leaderFence() : control.fence,
      onOperationWait: control.waitingOn,
      beforeFirstWrite: async () => {
        control.writing();
        // A programming stopped for the Gateway's deletion writes nothing (the fence skips every level): no finalizer.
        if (hasGatewayFinalizer(gateway) || control.fence()) return;
        await setGatewayFinalizer(client, gateway, true);
        logger.info('added the finalizer before the first Azure write', { step: 'apply' });
      },
    });
    for (const r of report.resources.filter((r) => r.action === 'created' || r.action === 'updated' || r.action === 'deleted' || r.action === 'failed')) {
      logger.info(`ARM ${r.action} ${r.kind} ${r.name}`, { step: 'apply', kind: r.kind, resource: r.name, action: r.action, state: r.state, cause: r.cause });
    }
    logger.info('observed Azure', {
      step: 'observe',
      profile: report.profile,
      programmed: report.programmed,
      reason: report.reason,
      reads: report.reads,
      writes: report.writes,
      pending: report.pending.length,
      durationMs: Math.round(performance.now() - started),
    });
    // A custom domain awaiting DNS validation changes in Azure alone: Azure is read again until AFD has validated it.
    // A failure a route owns leaves the Gateway programmed but is looked at again (a refused body is read, not re-sent:
    // TerminalRefusals).
    if (report.programmed && report.failures.length === 0 && report.customDomains.every((d) => d.validated))
      programmed.set(owner.key, { uid: owner.uid, hash, checkAt: now().getTime() + driftCheckDelayMs(owner, report, access), report });
    else programmed.delete(owner.key);
    return report;
  }

  /** The drift period for the Gateways programmed now, this one with its new report, jittered so the checks spread. */
  function driftCheckDelayMs(owner: GatewayOwner, report: ReconcileReport, access: AzureFrontDoorAccess): number {
    let readsPerSweep = driftCheckReads(report);
    for (const [key, other] of programmed) if (key !== owner.key) readsPerSweep += driftCheckReads(other.report);
    return withJitter(driftCheckPeriodMs(access.driftCheck ?? DEFAULT_DRIFT_CHECK, readsPerSweep), 0.1);
  }

  /** A programmed Gateway comes back when its drift check is due, not when the informer's resync happens to deliver it. */
  function withDriftCheck(outcome: ReconcileOutcome, owner: GatewayOwner): ReconcileOutcome {
    const last = programmed.get(owner.key);
    if (outcome.kind !== 'done' || !last) return outcome;
    return requeueAfter(Math.max(1, last.checkAt - now().getTime()), 'drift check: Azure is read again');
  }

  function refusalsOf(owner: GatewayOwner, access: AzureFrontDoorAccess): TerminalRefusals {
    const known = refusals.get(owner.key);
    if (known) return known;
    const fresh = new TerminalRefusals({
      ...(access.refusalRecheckMs !== undefined ? { recheckMs: access.refusalRecheckMs } : {}),
      now: () => now().getTime(),
    });
    refusals.set(owner.key, fresh);
    return fresh;
  }

  /** The controller's outcome for a provider report; terminal Azure failures are looked at again now and then. */
  function outcomeOf(report: ReconcileReport, gateway: CachedGateway, logger: Logger, access: AzureFrontDoorAccess): ReconcileOutcome {
    const cause = report.message;
    switch (report.outcome.type) {
      case 'done':
        return done();
      case 'requeue-after':
        return requeueAfter(report.outcome.afterMs, report.outcome.reason);
      case 'retry':
        // A route's own failure is told on the route (its AzureProgrammed condition), not as a Gateway warning.
        if (!report.programmed) events.record(gateway, 'Warning', report.reason, 'Program', cause);
        return retry(new Error(cause));
      case 'terminal':
        if (report.programmed) {
          logger.warn('Azure refused resources some HTTPRoutes need; their parent entries say which, the rest of the Gateway is programmed', {
            reason: report.reason,
            cause,
          });
          return requeueAfter(access.terminalRecheckMs ?? 5 * 60_000, cause);
        }
        events.record(gateway, 'Warning', report.reason, 'Program', cause);
        // A refusal of the Gateway's own configuration is an expected condition (its status says what to change);
        // only Azure's refusal of a read or write is a failure of ours.
        if (report.reason === 'AzureReadFailed' || report.reason === 'AzureWriteFailed') {
          logger.error('Azure refused the Gateway’s configuration; trying again later', { reason: report.reason, cause });
        } else {
          logger.warn('the Gateway’s configuration cannot be programmed; looking again later', { reason: report.reason, cause });
        }
        return requeueAfter(access.terminalRecheckMs ?? 5 * 60_000, cause);
    }
  }

  /** The report whose message (hence the Programmed condition and the Event) says which access the hub lacks. */
  function withAccessHints(report: ReconcileReport, access: AzureFrontDoorAccess): ReconcileReport {
    const hints = new Set(report.failures.flatMap((f) => accessHint(f.failure, access.scope, access.identity) ?? []));
    return hints.size === 0 ? report : { ...report, message: [report.message, ...hints].join('; ') };
  }

  /** Each route's parent entries for this Gateway, with what Azure refused of it or the plan could not program. */
  async function writeRouteStatuses(
    gateway: CachedGateway,
    owner: GatewayOwner,
    routes: readonly RouteVerdict[],
    report: ReconcileReport | undefined,
    logger: Logger,
    sets: readonly ListenerSetVerdict[],
  ): Promise<void> {
    const verdicts = new Map(routes.map((v) => [`${v.namespace}/${v.name}`, v]));
    const setKeys = new Set(sets.map((s) => `${s.namespace}/${s.name}`));
    const withEntries = [
      ...stores.httpRoutes.byIndex(ROUTES_BY_STATUS_PARENT, owner.key),
      ...[...setKeys].flatMap((k) => stores.httpRoutes.byIndex(ROUTES_BY_STATUS_LISTENER_SET, k)),
    ];
    const detached = [...new Map(withEntries.map((r) => [objectKey(r), r])).values()].filter((r) => !verdicts.has(objectKey(r)));
    const failuresOf = new Map<string, FailureReport[]>();
    for (const f of report?.failures ?? [])
      for (const o of f.owners) failuresOf.set(`${o.namespace}/${o.name}`, [...(failuresOf.get(`${o.namespace}/${o.name}`) ?? []), f]);
    const plannedOf = new Map(planProblemsByRoute(report?.problems ?? []).map((p) => [`${p.namespace}/${p.name}`, p]));
    let writes = 0;
    const ruleOf = (route: CachedHTTPRoute) => routeParentRule(route.metadata.namespace ?? '', owner.key, setKeys);
    for (const verdict of verdicts.values()) {
      const route = stores.httpRoutes.getByName(verdict.name, verdict.namespace);
      if (!route) continue;
      const azure = azureProgrammedCondition(failuresOf.get(objectKey(route)) ?? [], plannedOf.get(objectKey(route)), route.metadata.generation ?? 0);
      if (await spliceRouteParents(route, owner, ruleOf(route), routeParentEntries(verdict, azure), logger)) writes++;
    }
    for (const route of detached) if (await spliceRouteParents(route, owner, ruleOf(route), [], logger)) writes++;
    // A deleted ListenerSet names no Gateway any more: any Gateway's reconcile clears our entries about it.
    for (const { route, gone } of orphanedListenerSetEntries()) {
      if (await spliceRouteParents(route, owner, routeParentRule(route.metadata.namespace ?? '', undefined, gone), [], logger)) writes++;
    }
    if (writes > 0) logger.info('wrote HTTPRoute status', { step: 'status', routes: writes, detached: detached.length, gateway: objectKey(gateway) });
  }

  /** Routes with our entries about ListenerSets that no longer exist, with those ListenerSets. */
  function orphanedListenerSetEntries(): { route: CachedHTTPRoute; gone: ReadonlySet<string> }[] {
    const sets = stores.listenerSets;
    if (!sets) return [];
    return stores.httpRoutes.byIndex(ROUTES_WITH_LISTENER_SET_STATUS, WITH_LISTENER_SET_STATUS).flatMap((route) => {
      const gone = statusParentListenerSetsOf(route).filter((k) => !sets.get(k));
      return gone.length > 0 ? [{ route, gone: new Set(gone) }] : [];
    });
  }

  async function spliceRouteParents(
    route: CachedHTTPRoute,
    owner: GatewayOwner,
    rule: ReturnType<typeof routeParentRule>,
    all: ReturnType<typeof routeParentEntries>,
    logger: Logger,
  ): Promise<boolean> {
    return writeOwnStatus(route, 'HTTPRoute', owner, logger, async () => {
      const { entries, leftOut } = withinParentLimit(route.status?.parents ?? [], all, rule);
      if (leftOut > 0)
        logger.warn('status.parents holds at most 32 entries; entries for this Gateway left out', { step: 'status', route: objectKey(route), leftOut });
      try {
        return (await statusWriter.splice(httpRoutes, route, { listPath: ['parents'], entries, rule })).written;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    });
  }

  async function publishFrontDoorIds(
    gateway: CachedGateway,
    model: GlobalGateway,
    owner: GatewayOwner,
    report: ReconcileReport,
    logger: Logger,
  ): Promise<void> {
    if (!report.frontDoorId) return;
    const entry = frontDoorEntry(owner, report.profile, report.frontDoorId);
    for (const key of exportsUsedBy(model)) {
      const ise = stores.internalServiceExports.get(key);
      if (!ise) continue;
      await writeOwnStatus(ise, 'InternalServiceExport', owner, logger, async () => {
        const outcome = await statusWriter.splice(internalServiceExports, ise, { listPath: ['frontDoors'], entries: [entry], rule: entryRule(owner) });
        if (outcome.written) logger.info('published the profile’s frontDoorId on the export', { step: 'status', export: key, gateway: objectKey(gateway) });
        return outcome.written;
      });
    }
  }

  /** Tells the members whose Private Link origin this reconcile created that a new connection is on its way. */
  async function markAskedAgain(owner: GatewayOwner, report: ReconcileReport, logger: Logger): Promise<void> {
    for (const { export: ise, request } of requestsAskedAgain(report, owner, (k) => stores.internalServiceExports.get(k), now(), bindingOf(owner))) {
      await writeOwnStatus(ise, 'InternalServiceExport', owner, logger, async () => {
        const outcome = await statusWriter.splice(internalServiceExports, ise, {
          listPath: ['privateLinkRequests'],
          entries: [request],
          rule: entryRule(owner),
        });
        if (outcome.written) logger.info('the Private Link origin asked again: marked on the export', { step: 'status', export: objectKey(ise) });
        return outcome.written;
      });
    }
  }

  /** Each ListenerSet naming the Gateway, on its own: its Programmed follows the Gateway's as this reconcile writes it. */
  async function writeListenerSetStatuses(
    gateway: CachedGateway,
    result: ResolveResult,
    state: ProgrammedState,
    gatewayStatusNow: GatewayStatusNow,
    owner: GatewayOwner,
    logger: Logger,
  ): Promise<void> {
    const sets = result.verdicts.listenerSets ?? [];
    if (!stores.listenerSets || sets.length === 0) return;
    // gatewayStatus builds its conditions from VerdictConditions; they are typed as the API's only once written.
    const programmed = (gatewayStatusNow.conditions as readonly VerdictCondition[]).find((c) => c.type === 'Programmed');
    let writes = 0;
    for (const setVerdict of sets) {
      const set = stores.listenerSets.getByName(setVerdict.name, setVerdict.namespace);
      if (!set) continue;
      const status = listenerSetStatus(setVerdict, set.metadata.generation ?? 0, state, programmed);
      const written = await writeOwnStatus(set, 'ListenerSet', owner, logger, async () => {
        try {
          return (await statusWriter.apply(listenerSets, set, { ...status }, LIST_KEYS)).written;
        } catch (error) {
          if (isNotFound(error)) return false;
          throw error;
        }
      });
      if (written) writes++;
    }
    if (writes > 0) logger.info('wrote ListenerSet status', { step: 'status', listenerSets: writes, gateway: objectKey(gateway) });
  }

  /** The Gateway's status for this reconcile's state; undefined when resolve gave no Gateway verdict (not ours). */
  function gatewayStatusOf(gateway: CachedGateway, result: ResolveResult, state: ProgrammedState): GatewayStatusNow | undefined {
    const verdict = result.verdicts.gateway;
    return verdict && gatewayStatus(verdict, gateway.metadata.generation ?? 0, state, gateway.status);
  }

  async function writeGatewayStatus(gateway: CachedGateway, result: ResolveResult, status: GatewayStatusNow | undefined, logger: Logger): Promise<void> {
    const verdict = result.verdicts.gateway;
    if (!verdict || !status) return;
    // Written only where the hub serves ListenerSets (the field came with them), 0 when none is attached.
    const attached = stores.listenerSets ? { attachedListenerSets: verdict.attachedListenerSets ?? 0 } : {};
    const written = await statusWriter.apply(gateways, gateway, { ...status, ...attached }, LIST_KEYS);
    const programmedNow = status.conditions.find((c) => c.type === 'Programmed');
    if (!written.written) return;
    logger.info('wrote the Gateway status', { step: 'status', programmed: programmedNow?.status, reason: programmedNow?.reason });
    const before = findCondition(gateway.status?.conditions as Condition[] | undefined, 'Programmed');
    if (programmedNow?.status === 'True' && before?.status !== 'True') {
      events.record(gateway, 'Normal', 'Programmed', 'Program', programmedNow.message);
    }
  }

  async function finalize(gateway: CachedGateway, owner: GatewayOwner, logger: Logger, signal: AbortSignal): Promise<ReconcileOutcome> {
    const identity = {
      namespace: gateway.metadata.namespace ?? '',
      name: gateway.metadata.name ?? '',
      uid: owner.uid,
      generation: gateway.metadata.generation ?? 0,
    };
    // Its programming stops at its next step first: nothing is written to a profile being deleted, and no worker waits
    // (the programming's end brings the Gateway back).
    if (stopProgramming(owner.key, 'the Gateway is being deleted')) {
      logger.info('the Gateway is being deleted: its programming of Azure stops at its next step first', { step: 'delete' });
      return done();
    }
    programmed.delete(owner.key);
    refusals.delete(owner.key);
    statusBackoff.forget(`${owner.key}|`);
    for (const key of issuedMessages.keys()) if (key.startsWith(`${owner.uid}|`)) issuedMessages.delete(key);
    afdRetired.forget(owner);
    options.metrics?.forget(owner.key);
    if (!hasGatewayFinalizer(gateway)) return done();
    const policy = readDeletionPolicy(gateway.metadata.annotations);
    const previous = findCondition(gateway.status?.conditions as Condition[] | undefined, 'Programmed');
    const blocked = async (reason: string, message: string, outcome: ReconcileOutcome): Promise<ReconcileOutcome> => {
      const result = resolveGateway(collectHubInputs(stores, gateway, options.defaultSku));
      await writeGatewayStatus(gateway, result, gatewayStatusOf(gateway, result, { kind: 'deleting', reason, message, previous }), logger);
      events.record(gateway, 'Warning', reason, 'Delete', message);
      return outcome;
    };
    if (!policy.ok) {
      const message = `the Gateway is being deleted but ${policy.error.message}; the AFD profile and the finalizer stay until it is fixed`;
      return blocked('InvalidDeletionPolicy', message, done());
    }
    if (policy.policy === 'Delete') {
      if (!azure) {
        const message =
          'the Gateway is being deleted but Azure Front Door reconciliation is disabled on this hub (--enable-afd=false), so its AFD profile cannot be removed; enable it, or annotate the Gateway networking.fleet.azure.com/afd-deletion-policy: Orphan to delete it and leave the profile';
        return blocked('AzureFrontDoorDisabled', message, done());
      }
      const report = await withArmFlow(owner.key, () =>
        deleteFrontDoor(azure.clients, identity, {
          hubIdentity: azure.hubIdentity,
          scope: azure.scope,
          abortSignal: signal,
          ...(azure.pollIntervalMs !== undefined ? { pollIntervalMs: azure.pollIntervalMs } : {}),
          ...(azure.writeFence ? { fence: azure.writeFence } : {}),
        }),
      );
      logger.info('deleting the AFD profile', { step: 'delete', profile: report.profile, result: report.result });
      if (report.result === 'refused' || report.result === 'failed') {
        const hint = report.failure ? accessHint(report.failure, azure.scope, azure.identity) : undefined;
        const message = `${[report.message, ...(hint ? [hint] : [])].join('; ')}; the finalizer stays (annotate networking.fleet.azure.com/afd-deletion-policy: Orphan to delete the Gateway and leave the profile)`;
        const outcome =
          report.outcome.type === 'retry' ? retry(new Error(report.message)) : requeueAfter(azure.terminalRecheckMs ?? 5 * 60_000, report.message);
        return blocked(report.result === 'refused' ? 'ForeignProfile' : 'DeleteFailed', message, outcome);
      }
      events.record(gateway, 'Normal', 'Deleted', 'Delete', report.message);
    } else {
      logger.info('orphaning the AFD profile as the deletion policy asks', { step: 'delete', profile: profileName(identity) });
      events.record(gateway, 'Normal', 'Orphaned', 'Delete', 'deletion policy Orphan: the AFD profile was left in Azure, untouched');
    }
    await releaseExports(owner, logger);
    await setGatewayFinalizer(client, gateway, false);
    logger.info('removed the finalizer', { step: 'delete' });
    return done();
  }

  /** Fences the Gateway's programming task: whether it still runs (its end brings the Gateway back). */
  function stopProgramming(key: string, reason: string): boolean {
    const running = programming.stop(key, reason);
    programming.forget(key);
    return running !== undefined && !running.settled;
  }

  /** Takes this Gateway's request messages and frontDoorIds off every export (the connections went with the profile). */
  async function releaseExports(owner: GatewayOwner, logger: Logger): Promise<void> {
    for (const ise of stores.internalServiceExports.byIndex(EXPORTS_BY_GATEWAY, owner.key)) {
      let current: CachedInternalServiceExport = ise;
      for (const listPath of [['privateLinkRequests'], ['frontDoors']]) {
        try {
          const outcome = await statusWriter.splice(internalServiceExports, current, { listPath, entries: [], rule: entryRule(owner) });
          if (outcome.written) current = outcome.object;
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
      logger.info('released the export', { step: 'delete', export: objectKey(ise) });
    }
  }
}
