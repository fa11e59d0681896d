import type { Condition, GatewayStatus } from '@fleet-gateway/api-types';
import type { ReconcileReason, ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import type { GatewayVerdict, VerdictCondition } from '@fleet-gateway/model';

/** Our condition beside Accepted and Programmed while this hub runs with `--enable-afd=false`. */
export const AFD_RECONCILIATION_CONDITION = 'networking.fleet.azure.com/AzureFrontDoorReconciliation';

export const AFD_DISABLED_MESSAGE = 'Azure Front Door reconciliation is disabled on this hub (--enable-afd=false)';

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
  /** Deleting: the profile could not be removed yet. */
  | { readonly kind: 'deleting'; readonly reason: string; readonly message: string; readonly previous: Condition | undefined };

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

/** Condition messages are bounded by the API (32,768); long pending lists are cut with a count of what was left out. */
const MESSAGE_LIMIT = 8_000;

function bounded(message: string): string {
  if (message.length <= MESSAGE_LIMIT) return message;
  const cut = message.slice(0, MESSAGE_LIMIT);
  return `${cut.slice(0, cut.lastIndexOf(';'))}; … (${message.length - MESSAGE_LIMIT} more characters)`;
}

/** "2 of 3 resources provisioned; origin group og-… Creating; …" from the provider's report. */
export function describeReport(report: ReconcileReport): string {
  if (report.programmed) return [report.message, ...report.propagation].join('; ');
  if (report.reason !== 'Pending') return report.message;
  const live = report.resources.filter((r) => r.action !== 'deleted' && r.action !== 'kept');
  const ready = live.filter((r) => r.state === 'Succeeded').length;
  return [`${ready} of ${live.length} resources provisioned`, ...report.pending, ...report.propagation.map((p) => `${p} (informational)`)].join('; ');
}

function programmedCondition(state: ProgrammedState, generation: number, accepted: VerdictCondition | undefined): VerdictCondition | undefined {
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
      if (state.previous) return { ...at(state.previous.status, state.previous.reason, state.previous.message), observedGeneration: state.previous.observedGeneration ?? generation };
      return at('False', 'Pending', `${AFD_DISABLED_MESSAGE}; nothing is programmed in Azure`);
    case 'deleting':
      return at(state.previous?.status ?? 'False', state.reason, state.message);
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
  return { type: 'Programmed', status: 'False', reason: 'Pending', message: bounded(awaiting.map((d) => d.message).join('; ')), observedGeneration: programmed.observedGeneration };
}

function reconciliationCondition(state: ProgrammedState, generation: number): VerdictCondition[] {
  if (state.kind !== 'disabled') return [];
  return [{ type: AFD_RECONCILIATION_CONDITION, status: 'False', reason: 'Disabled', message: `${AFD_DISABLED_MESSAGE}; the Azure side of this Gateway is neither changed nor deleted`, observedGeneration: generation }];
}

/**
 * The Gateway status this reconcile writes: resolve's Accepted (and its Programmed when invalid), the provider's
 * Programmed from what Azure showed, listener conditions with a Programmed that follows the Gateway's, and the
 * endpoint hostname as the address. Held and disabled Gateways keep the address they had.
 */
export function gatewayStatus(
  verdict: GatewayVerdict,
  generation: number,
  state: ProgrammedState,
  current: GatewayStatus | undefined,
): Required<Pick<GatewayStatus, 'conditions' | 'listeners'>> & Pick<GatewayStatus, 'addresses'> {
  const programmed = programmedCondition(state, generation, verdict.conditions.find((c) => c.type === 'Accepted'));
  const fromVerdict = verdict.conditions.filter((c) => !(programmed && c.type === 'Programmed'));
  const conditions = [...fromVerdict, ...(programmed ? [programmed] : []), ...reconciliationCondition(state, generation)];
  const gatewayProgrammed = conditions.find((c) => c.type === 'Programmed');
  const listeners = verdict.listeners.map((l) => {
    const own = l.conditions.some((c) => c.type === 'Programmed');
    const follow: VerdictCondition[] =
      own || !gatewayProgrammed
        ? []
        : [
            listenerDomainCondition(state, l.name, gatewayProgrammed) ?? {
              type: 'Programmed',
              status: gatewayProgrammed.status,
              reason: gatewayProgrammed.reason,
              message: gatewayProgrammed.status === 'True' ? 'listener is programmed' : `the Gateway is not programmed: ${gatewayProgrammed.reason}`,
              observedGeneration: gatewayProgrammed.observedGeneration,
            },
          ];
    return { name: l.name, supportedKinds: l.supportedKinds.map((k) => ({ ...k })), attachedRoutes: l.attachedRoutes, conditions: [...l.conditions, ...follow] };
  });
  const host = state.kind === 'reconciled' ? state.report.endpointHostName : undefined;
  const addresses = (host ? [{ type: 'Hostname', value: host }] : state.kind === 'reconciled' ? undefined : current?.addresses) as GatewayStatus['addresses'];
  return { conditions: conditions as Condition[], listeners: listeners as GatewayStatus['listeners'] & object, ...(addresses && addresses.length > 0 ? { addresses } : {}) };
}
