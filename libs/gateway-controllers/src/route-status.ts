import type { RouteParentStatus } from '@fleet-gateway/api-types';
import type { OwnedEntryRule } from '@fleet-gateway/controller';
import { CONTROLLER_NAME, type RouteVerdict } from '@fleet-gateway/model';
import { gatewayParentKey } from './gateway-indexes.js';

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
