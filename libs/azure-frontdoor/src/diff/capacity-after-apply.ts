import type { Route } from '@azure/arm-cdn';
import { refKey, type AfdRef } from '../plan/afd-refs.js';
import { compositeRouteMetric, measureResources, type Counted, type Measured } from '../plan/capacity.js';
import type { RouteSpec } from '../plan/spec-types.js';
import type { ObservedGraph } from '../observe/observe.js';
import { observedResources } from '../observe/observed-resources.js';
import type { Operation } from './operations.js';

function routeMetric(route: Route | undefined): number {
  return compositeRouteMetric([
    { patterns: route?.patternsToMatch ?? [], supportedProtocols: (route?.supportedProtocols ?? []) as RouteSpec['supportedProtocols'] },
  ]);
}

function isChildOf(child: AfdRef, parent: AfdRef): boolean {
  const lower = (s: string) => s.toLowerCase();
  if (parent.kind === 'originGroup') return child.kind === 'origin' && lower(child.originGroup) === lower(parent.originGroup);
  if (parent.kind === 'ruleSet') return child.kind === 'rule' && lower(child.ruleSet) === lower(parent.ruleSet);
  if (parent.kind === 'endpoint') return child.kind === 'route' && lower(child.endpoint) === lower(parent.endpoint);
  return false;
}

/**
 * What the profile will hold once `operations` are applied to what was observed: the plan plus everything kept
 * as it is (routing held while a rule is in error, withdrawn leftovers, unknown origins, endpoints not ours).
 */
export function measureAfterApply(observed: ObservedGraph, operations: readonly Operation[]): Measured {
  const profile = '';
  const final = new Map<string, Counted>();
  const put = (item: Counted) => final.set(refKey(item.ref), item);
  for (const { ref, arm } of observedResources(observed, profile)) put({ ref, ...(ref.kind === 'route' ? { routeMetric: routeMetric(arm as Route) } : {}) });
  for (const endpoint of observed.foreignEndpoints) put({ ref: { kind: 'endpoint', profile, endpoint } });
  for (const op of operations) {
    if (op.action !== 'delete') {
      put({ ref: op.ref, ...(op.ref.kind === 'route' ? { routeMetric: routeMetric(op.body as Route) } : {}) });
      continue;
    }
    final.delete(refKey(op.ref));
    for (const [k, item] of final) if (isChildOf(item.ref, op.ref)) final.delete(k);
  }
  return measureResources([...final.values()]);
}
