import type { RouteParentStatus } from '@fleet-gateway/api-types';
import { describeRef, type FailureReport, type RoutePlanProblems } from '@fleet-gateway/azure-frontdoor';
import { describeFailure } from '@fleet-gateway/arm-runtime';
import type { OwnedEntryRule } from '@fleet-gateway/controller';
import { CONTROLLER_NAME, withdrawalsNotMade, type RouteVerdict, type VerdictCondition } from '@fleet-gateway/model';
import { gatewayParentKey, listenerSetParentKey } from './gateway-indexes.js';
import type { ProgrammedState } from './gateway-status.js';

/**
 * Our condition on a route's parent entry while Azure refuses (or failed to take) a resource the route needs. Gateway
 * API has no route condition for the data plane's own refusal (Accepted and ResolvedRefs speak of the spec and its
 * references, both fine here), so it is ours, beside them; it is present only while there is a failure.
 */
export const AZURE_PROGRAMMED_CONDITION = 'networking.fleet.azure.com/AzureProgrammed';

/** The HTTPRoutes `status.parents` list holds at most 32 entries (its CRD's maxItems). */
export const MAX_ROUTE_PARENTS = 32;

/**
 * The route's AzureProgrammed condition: what Azure refused of it (the failures that name it), else what the plan
 * could not program of it (AFD's limits: the newest routes past the profile's route budget, rules past a rule set's
 * limit), or none while everything of it is programmed.
 */
export function azureProgrammedCondition(
  failures: readonly FailureReport[],
  planned: RoutePlanProblems | undefined,
  generation: number,
): VerdictCondition | undefined {
  const notPlanned = planned?.problems.filter((p) => p.code !== 'InvalidBackendConfiguration') ?? [];
  const plan = notPlanned.map((p) => p.message).join('; ');
  if (failures.length === 0) {
    if (notPlanned.length === 0) return undefined;
    const message = `${plan}; what AFD cannot take of this route keeps what it last served (nothing, if never programmed); the rest of it and other routes of the Gateway are programmed`;
    return { type: AZURE_PROGRAMMED_CONDITION, status: 'False', reason: notPlanned[0]!.code, message, observedGeneration: generation };
  }
  const terminal = failures.every((f) => f.failure.class === 'terminal');
  const what = failures.map((f) => `Azure refused the ${f.action} of ${describeRef(f.ref)}: ${describeFailure(f.failure)}`).join('; ');
  const then = terminal
    ? 'what this route needs from it is not programmed and the rest stays as last programmed until the route changes; other routes of the Gateway are programmed'
    : 'it is retried; other routes of the Gateway are programmed';
  const message = [what, then, ...(plan ? [plan] : [])].join('; ');
  return { type: AZURE_PROGRAMMED_CONDITION, status: 'False', reason: terminal ? 'AzureRefused' : 'AzureWriteFailed', message, observedGeneration: generation };
}

/**
 * Our entries of one route's `status.parents` for one Gateway: one per parentRef of the route that names it, each with
 * the route's Azure condition when there is one.
 */
export function routeParentEntries(verdict: RouteVerdict, azure?: VerdictCondition): RouteParentStatus[] {
  return verdict.parents.map((p) => ({
    parentRef: { ...p.parentRef },
    controllerName: CONTROLLER_NAME,
    conditions: [...p.conditions, ...(azure ? [azure] : [])].map((c) => ({ ...c })) as RouteParentStatus['conditions'],
  }));
}

/** Our entries cut to what `status.parents` still has room for beside the entries of others; the rest is counted. */
export function withinParentLimit(current: readonly RouteParentStatus[], entries: readonly RouteParentStatus[], rule: OwnedEntryRule<RouteParentStatus>) {
  const room = Math.max(0, MAX_ROUTE_PARENTS - current.filter((e) => !rule.isOurs(e)).length);
  return { entries: entries.slice(0, room), leftOut: Math.max(0, entries.length - room) };
}

/**
 * Which entries of a route's `status.parents` this Gateway's reconcile owns: ours (controllerName) and about this
 * Gateway (`gatewayKey`; none when undefined) or one of `listenerSets` (`<namespace>/<name>`: those naming it, or those
 * gone). Other controllers' entries, and ours about other Gateways, are left as they are.
 */
export function routeParentRule(
  routeNamespace: string,
  gatewayKey: string | undefined,
  listenerSets: ReadonlySet<string> = new Set(),
): OwnedEntryRule<RouteParentStatus> {
  const about = (ref: RouteParentStatus['parentRef']) => {
    const set = listenerSetParentKey(routeNamespace, ref);
    return set === undefined ? gatewayParentKey(routeNamespace, ref) === gatewayKey : listenerSets.has(set);
  };
  return { keyFields: ['parentRef', 'controllerName'], isOurs: (entry) => entry.controllerName === CONTROLLER_NAME && about(entry.parentRef) };
}

/**
 * The route verdicts as this reconcile's Azure step leaves them true: when nothing of the model was written (the
 * Gateway held at the generation it serves, or its whole model refused before any write, as a SKU change is), no
 * rule was withdrawn, whatever the model says.
 */
export function routeVerdictsAsServed(verdicts: readonly RouteVerdict[], state: ProgrammedState): readonly RouteVerdict[] {
  if (state.kind === 'held')
    return withdrawalsNotMade(verdicts, `the Gateway is held at generation ${state.servingGeneration} (see its Accepted), so nothing was changed in Azure`);
  if (state.kind !== 'reconciled') return verdicts;
  const { report } = state;
  const refused = report.writes === 0 && report.reason !== 'Programmed' && report.reason !== 'Pending';
  return refused
    ? withdrawalsNotMade(verdicts, `the Gateway's model was not programmed (${report.reason}, see its Programmed), so nothing was changed in Azure`)
    : verdicts;
}
