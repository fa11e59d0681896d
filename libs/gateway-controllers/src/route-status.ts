import type { RouteParentStatus } from '@fleet-gateway/api-types';
import type { OwnedEntryRule } from '@fleet-gateway/controller';
import { CONTROLLER_NAME, withdrawalsNotMade, type RouteVerdict } from '@fleet-gateway/model';
import { gatewayParentKey } from './gateway-indexes.js';
import type { ProgrammedState } from './gateway-status.js';

/** Our entries of one route's `status.parents` for one Gateway: one per parentRef of the route that names it. */
export function routeParentEntries(verdict: RouteVerdict): RouteParentStatus[] {
  return verdict.parents.map((p) => ({
    parentRef: { ...p.parentRef },
    controllerName: CONTROLLER_NAME,
    conditions: p.conditions.map((c) => ({ ...c })) as RouteParentStatus['conditions'],
  }));
}

/**
 * Which entries of a route's `status.parents` this Gateway's reconcile owns: ours (controllerName) and about this
 * Gateway. Other controllers' entries, and ours about other Gateways, are left as they are.
 */
export function routeParentRule(routeNamespace: string, gatewayKey: string): OwnedEntryRule<RouteParentStatus> {
  return {
    keyFields: ['parentRef', 'controllerName'],
    isOurs: (entry) => entry.controllerName === CONTROLLER_NAME && gatewayParentKey(routeNamespace, entry.parentRef) === gatewayKey,
  };
}

/**
 * The route verdicts as this reconcile's Azure step leaves them true: when nothing of the model was written (the
 * Gateway held at the generation it serves, or its whole model refused before any write, as a SKU change is), no
 * rule was withdrawn, whatever the model says.
 */
export function routeVerdictsAsServed(verdicts: readonly RouteVerdict[], state: ProgrammedState): readonly RouteVerdict[] {
  if (state.kind === 'held') return withdrawalsNotMade(verdicts, `the Gateway is held at generation ${state.servingGeneration} (see its Accepted), so nothing was changed in Azure`);
  if (state.kind !== 'reconciled') return verdicts;
  const { report } = state;
  const refused = report.writes === 0 && report.reason !== 'Programmed' && report.reason !== 'Pending';
  return refused ? withdrawalsNotMade(verdicts, `the Gateway's model was not programmed (${report.reason}, see its Programmed), so nothing was changed in Azure`) : verdicts;
}
