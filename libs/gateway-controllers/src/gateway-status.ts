import type { Condition, GatewayStatus } from '@fleet-gateway/api-types';
import type { ReconcileReason, ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import { capMessage } from '@fleet-gateway/controller';
import type { GatewayVerdict, ListenerVerdict, VerdictCondition } from '@fleet-gateway/model';
import type { ProgrammingPhase } from './programming-tasks.js';

/** Our condition beside Accepted and Programmed while this hub runs with `--enable-afd=false`. */
export const AFD_RECONCILIATION_CONDITION = 'networking.fleet.azure.com/AzureFrontDoorReconciliation';

export const AFD_DISABLED_MESSAGE = 'Azure Front Door reconciliation is disabled on this hub (--enable-afd=false)';

/**
 * Whether the hub could read the Gateway's Azure side (as the member agent says of its Azure data): `True`
 * `AzureDataRead`, or `False` `AzureReadFailed` while reads fail, when Programmed and the addresses stay as last
 * observed (fail-static).
 */
export const AZURE_DATA_CURRENT_CONDITION = 'networking.fleet.azure.com/AzureDataCurrent';

/** Where the Gateway's Azure side stands, as this reconcile found it. */
export type ProgrammedState =
  /** The provider reconciled the model; its report says what Azure shows. */
  | { readonly kind: 'reconciled'; readonly report: ReconcileReport }
  /** The new spec is not accepted; Azure keeps what was programmed at `servingGeneration`. */
  | { readonly kind: 'held'; readonly previous: Condition | undefined; readonly servingGeneration: number }
  /** AFD is disabled here; `previous` is the Programmed condition of a Gateway programmed earlier. */
  | { readonly kind: 'disabled'; readonly previous: Condition | undefined }
  /** Nothing to program: resolve's verdict carries Programmed=False. */
  | { readonly kind: 'not-accepted' }
  /** Over the subscription's AFD profile quota: nothing was written to Azure; `message` names the quota. */
  | { readonly kind: 'over-quota'; readonly message: string }
  /** Deleting: the profile could not be removed yet. */
  | { readonly kind: 'deleting'; readonly reason: string; readonly message: string; readonly previous: Condition | undefined }
  /**
   * Azure is being programmed and has not finished (`message` says how far it is); `serving` is the Programmed=True
   * condition of this generation when only what the Gateway's routes and backends reach changes: it stays True.
   */
  | { readonly kind: 'programming'; readonly message: string; readonly serving: Condition | undefined };

/** Gateway API reasons where one fits, ours otherwise (libs/model's README lists which are set here). */
const PROGRAMMED_REASON: Readonly<Record<ReconcileReason, string>> = {
  Programmed: 'Programmed',
  Pending: 'Pending',
  CapacityExceeded: 'NoResources',
  InvalidPlan: 'Invalid',
  ForeignProfile: 'ForeignProfile',
  SkuImmutable: 'SkuImmutable',
  WafPolicyNotFound: 'WafPolicyNotFound',
  WafPolicySkuMismatch: 'WafPolicySkuMismatch',
  AzureReadFailed: 'AzureReadFailed',
  AzureWriteFailed: 'AzureWriteFailed',
};

/**
 * The Programmed message is kept well under the API's bound (32,768, which the status writer enforces on every
 * message): a long pending list stays readable, cut at a list boundary with a count of what was left out.
 */
const PROGRAMMED_MESSAGE_LIMIT = 8_000;

const bounded = (message: string) => capMessage(message, PROGRAMMED_MESSAGE_LIMIT);

/** "2 of 3 resources provisioned; origin group og-… Creating; …" from the provider's report. */
export function describeReport(report: ReconcileReport): string {
  if (report.programmed) return [report.message, ...report.propagation].join('; ');
  if (report.reason !== 'Pending') return report.message;
  const live = report.resources.filter((r) => r.action !== 'deleted' && r.action !== 'kept');
  const ready = live.filter((r) => r.state === 'Succeeded').length;
  return [`${ready} of ${live.length} resources provisioned`, ...report.pending, ...report.propagation.map((p) => `${p} (informational)`)].join('; ');
}

/** The Programmed message while the Gateway's programming of Azure runs, saying how far it is. */
export function describeProgramming(phase: ProgrammingPhase): string {
  const where =
    phase.kind === 'waiting'
      ? 'waiting for the programming of an earlier model of this Gateway to stop at its next step'
      : phase.kind === 'reading'
        ? 'reading the AFD profile, nothing written yet'
        : `Azure writes in flight since ${new Date(phase.since).toISOString()}`;
  return `the Gateway's model is being programmed in Azure (${where}); this status follows when Azure has finished`;
}

/** A reconcile that could not read Azure: status keeps the last observed state rather than withdraw it. */
function readFailed(state: ProgrammedState): state is { readonly kind: 'reconciled'; readonly report: ReconcileReport } {
  return state.kind === 'reconciled' && state.report.reason === 'AzureReadFailed';
}

// Greedy: the kept message never holds the marker, so its last occurrence ends the prefix.
const UNREADABLE = /^Azure could not be read \(.*\); the last observed state stands: /s;

// The programming note a served Gateway's message starts with while a change is programmed (see `programming`).
const PROGRAMMING = /^.*?; meanwhile Azure serves what was programmed: /s;

/** A served Gateway's Programmed while a change of it is programmed: True as it was, its message saying what runs. */
function programmingWhileServed(serving: Condition, message: string, generation: number): VerdictCondition {
  return {
    type: 'Programmed',
    status: serving.status,
    reason: serving.reason,
    message: bounded(`${message}; meanwhile Azure serves what was programmed: ${serving.message.replace(PROGRAMMING, '')}`),
    observedGeneration: generation,
  };
}

/** Programmed as last observed, its message saying what could not be read (once, however many failures in a row). */
function lastObserved(previous: Condition, report: ReconcileReport, generation: number): VerdictCondition {
  // What was observed, without the note of a programming that has ended since.
  const kept = previous.message.replace(UNREADABLE, '').replace(PROGRAMMING, '');
  return {
    type: 'Programmed',
    status: previous.status,
    reason: previous.reason,
    message: bounded(`Azure could not be read (${report.message}); the last observed state stands: ${kept}`),
    observedGeneration: previous.observedGeneration ?? generation,
  };
}

function programmedCondition(
  state: ProgrammedState,
  generation: number,
  previous: Condition | undefined,
  accepted: VerdictCondition | undefined,
): VerdictCondition | undefined {
  const at = (status: VerdictCondition['status'], reason: string, message: string): VerdictCondition => ({
    type: 'Programmed',
    status,
    reason,
    message: bounded(message),
    observedGeneration: generation,
  });
  switch (state.kind) {
    case 'reconciled': {
      const { report } = state;
      // A Programmed that only ever said Azure could not be read has no observed state to keep.
      if (readFailed(state) && previous && previous.reason !== PROGRAMMED_REASON.AzureReadFailed) return lastObserved(previous, report, generation);
      return at(report.programmed ? 'True' : 'False', PROGRAMMED_REASON[report.reason], describeReport(report));
    }
    case 'held': {
      const served = state.previous ? `${state.previous.message}` : 'the configuration last programmed';
      // The same generation refused means a change outside the Gateway's spec (its annotations, its GatewayClass, ...):
      // only Accepted knows which, so its words are repeated here.
      const current =
        state.servingGeneration === generation
          ? `generation ${generation} is no longer accepted after a change outside its spec (${accepted ? `${accepted.reason}: ${accepted.message}` : 'see Accepted'})`
          : `generation ${generation} is not accepted (see Accepted)`;
      const message = `serves the configuration accepted at generation ${state.servingGeneration}; ${current}, so nothing was changed in Azure: ${stripServing(served)}`;
      return at(state.previous?.status ?? 'Unknown', state.previous?.reason ?? 'Pending', message);
    }
    case 'disabled':
      if (state.previous)
        return {
          ...at(state.previous.status, state.previous.reason, state.previous.message),
          observedGeneration: state.previous.observedGeneration ?? generation,
        };
      return at('False', 'Pending', `${AFD_DISABLED_MESSAGE}; nothing is programmed in Azure`);
    case 'over-quota':
      return at('False', 'NoResources', state.message);
    case 'deleting':
      return at(state.previous?.status ?? 'False', state.reason, state.message);
    case 'programming':
      return state.serving ? programmingWhileServed(state.serving, state.message, generation) : at('False', 'Pending', state.message);
    case 'not-accepted':
      return undefined;
  }
}

const SERVING = /^serves the configuration accepted at generation \d+; .*?, so nothing was changed in Azure: /;

/** A held Gateway edited again keeps naming the programmed configuration, not the previous hold. */
function stripServing(message: string): string {
  return message.replace(SERVING, '');
}

/** The generation a held Gateway serves: the one its Programmed condition names or was observed at. */
export function servingGeneration(previous: Condition | undefined): number | undefined {
  if (!previous) return undefined;
  const named = /^serves the configuration accepted at generation (\d+);/.exec(previous.message);
  return named ? Number(named[1]) : previous.observedGeneration;
}

/**
 * A listener whose hostnames' custom domains AFD has not validated is not programmed yet: its Programmed says exactly
 * which DNS records to create (the Gateway stays programmed, its default domain serves).
 */
function listenerDomainCondition(state: ProgrammedState, listener: string, programmed: VerdictCondition): VerdictCondition | undefined {
  if (state.kind !== 'reconciled' || programmed.status !== 'True') return undefined;
  const awaiting = state.report.customDomains.filter((d) => !d.validated && d.listeners.includes(listener));
  if (awaiting.length === 0) return undefined;
  return {
    type: 'Programmed',
    status: 'False',
    reason: 'Pending',
    message: bounded(awaiting.map((d) => d.message).join('; ')),
    observedGeneration: programmed.observedGeneration,
  };
}

/**
 * One listener's status, of the Gateway or of a ListenerSet: its conditions from resolve and, unless resolve already
 * says it is not programmed, a Programmed that follows the Gateway's, or says which DNS records its custom domains
 * await. `modelListener` is its name in the model (libs/model listenerId), under which the domain reports file it;
 * `generation` that of the object the listener is written in (a ListenerSet's own), the Gateway's by default.
 */
export function listenerStatus(
  listener: ListenerVerdict,
  modelListener: string,
  state: ProgrammedState,
  gatewayProgrammed: VerdictCondition | undefined,
  generation = gatewayProgrammed?.observedGeneration,
) {
  const own = listener.conditions.some((c) => c.type === 'Programmed');
  const programmed = gatewayProgrammed && { ...gatewayProgrammed, observedGeneration: generation ?? gatewayProgrammed.observedGeneration };
  const follow: VerdictCondition[] =
    own || !programmed
      ? []
      : [
          listenerDomainCondition(state, modelListener, programmed) ?? {
            type: 'Programmed',
            status: programmed.status,
            reason: programmed.reason,
            message: programmed.status === 'True' ? 'listener is programmed' : `the Gateway is not programmed: ${programmed.reason}`,
            observedGeneration: programmed.observedGeneration,
          },
        ];
  return {
    name: listener.name,
    supportedKinds: listener.supportedKinds.map((k) => ({ ...k })),
    attachedRoutes: listener.attachedRoutes,
    conditions: [...listener.conditions, ...follow],
  };
}

function reconciliationCondition(state: ProgrammedState, generation: number): VerdictCondition[] {
  if (state.kind !== 'disabled') return [];
  return [
    {
      type: AFD_RECONCILIATION_CONDITION,
      status: 'False',
      reason: 'Disabled',
      message: `${AFD_DISABLED_MESSAGE}; the Azure side of this Gateway is neither changed nor deleted`,
      observedGeneration: generation,
    },
  ];
}

function azureDataCondition(state: ProgrammedState, generation: number, current: GatewayStatus | undefined): VerdictCondition[] {
  // What the last reconcile that read Azure said stands until the programming's own reads are reported.
  if (state.kind === 'programming') {
    const last = current?.conditions?.find((c) => c.type === AZURE_DATA_CURRENT_CONDITION) as Condition | undefined;
    return last
      ? [{ type: last.type, status: last.status, reason: last.reason, message: last.message, observedGeneration: last.observedGeneration ?? generation }]
      : [];
  }
  if (state.kind !== 'reconciled') return [];
  if (readFailed(state)) {
    const message = `${state.report.message}; Programmed and the addresses stay as last observed until Azure can be read again`;
    return [{ type: AZURE_DATA_CURRENT_CONDITION, status: 'False', reason: 'AzureReadFailed', message: bounded(message), observedGeneration: generation }];
  }
  return [
    {
      type: AZURE_DATA_CURRENT_CONDITION,
      status: 'True',
      reason: 'AzureDataRead',
      message: 'the status shows what Azure answered',
      observedGeneration: generation,
    },
  ];
}

/**
 * The Gateway status this reconcile writes: resolve's Accepted (and its Programmed when invalid), the provider's
 * Programmed from what Azure showed, listener conditions with a Programmed that follows the Gateway's, and the
 * endpoint hostname as the address. Held and disabled Gateways keep the address they had; so does a Gateway whose
 * Azure side could not be read, with its last Programmed, and AzureDataCurrent=False saying what failed.
 */
export function gatewayStatus(
  verdict: GatewayVerdict,
  generation: number,
  state: ProgrammedState,
  current: GatewayStatus | undefined,
): Required<Pick<GatewayStatus, 'conditions' | 'listeners'>> & Pick<GatewayStatus, 'addresses'> {
  const previous = current?.conditions?.find((c) => c.type === 'Programmed') as Condition | undefined;
  const programmed = programmedCondition(
    state,
    generation,
    previous,
    verdict.conditions.find((c) => c.type === 'Accepted'),
  );
  const fromVerdict = verdict.conditions.filter((c) => !(programmed && c.type === 'Programmed'));
  const conditions = [
    ...fromVerdict,
    ...(programmed ? [programmed] : []),
    ...reconciliationCondition(state, generation),
    ...azureDataCondition(state, generation, current),
  ];
  const gatewayProgrammed = conditions.find((c) => c.type === 'Programmed');
  const listeners = verdict.listeners.map((l) => listenerStatus(l, l.name, state, gatewayProgrammed));
  const host = state.kind === 'reconciled' ? state.report.endpointHostName : undefined;
  // A failed read says nothing about the endpoint: the address it had stays (DNS and health checks follow it).
  const keepAddresses = state.kind !== 'reconciled' || readFailed(state);
  const addresses = (host ? [{ type: 'Hostname', value: host }] : keepAddresses ? current?.addresses : undefined) as GatewayStatus['addresses'];
  return {
    conditions: conditions as Condition[],
    listeners: listeners as GatewayStatus['listeners'] & object,
    ...(addresses && addresses.length > 0 ? { addresses } : {}),
  };
}
