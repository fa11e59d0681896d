import { type SourceRef } from '@fleet-gateway/model';
import { compareText } from '@fleet-gateway/api-types';
import type { Operation } from '../diff/operations.js';

/**
 * The HTTPRoutes a failed write is theirs: those the resource comes from (a route's rules, a group's, a custom
 * domain's when a route names its hostname). Empty for the Gateway's own resources (profile, endpoint, a listener's
 * domain, the security policy) and for deletes: then the failure is the Gateway's. Routes that only wait for it (a
 * route inheriting a `*` rule on another team's hostname) are not named: they cannot change what was refused.
 */
export function failureOwners(failed: Operation): SourceRef[] {
  const routes = new Map<string, SourceRef>();
  for (const source of failed.provenance) {
    if (source.kind === 'HTTPRoute') routes.set(`${source.namespace}/${source.name}`, { kind: 'HTTPRoute', namespace: source.namespace, name: source.name });
  }
  return [...routes.values()].sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.name, b.name));
}
