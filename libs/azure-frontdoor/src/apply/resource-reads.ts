import type { CdnManagementClient } from '@azure/arm-cdn';
import { refParent, type AfdRef } from '../plan/afd-refs.js';
import type { Written } from './arm-write.js';

type Call = { abortSignal?: AbortSignal; onResponse?: (raw: { request: { method: string } }) => void };

/** One resource by GET. */
export function readResource(cdn: CdnManagementClient, rg: string, ref: AfdRef, call: Call): Promise<Written> {
  switch (ref.kind) {
    case 'profile':
      return cdn.profiles.get(rg, ref.profile, call);
    case 'endpoint':
      return cdn.afdEndpoints.get(rg, ref.profile, ref.endpoint, call);
    case 'customDomain':
      return cdn.afdCustomDomains.get(rg, ref.profile, ref.customDomain, call);
    case 'originGroup':
      return cdn.afdOriginGroups.get(rg, ref.profile, ref.originGroup, call);
    case 'origin':
      return cdn.afdOrigins.get(rg, ref.profile, ref.originGroup, ref.origin, call);
    case 'route':
      return cdn.routes.get(rg, ref.profile, ref.endpoint, ref.route, call);
    case 'ruleSet':
      return cdn.ruleSets.get(rg, ref.profile, ref.ruleSet, call);
    case 'rule':
      return cdn.rules.get(rg, ref.profile, ref.ruleSet, ref.rule, call);
    case 'securityPolicy':
      return cdn.securityPolicies.get(rg, ref.profile, ref.securityPolicy, call);
  }
}

/** The collection a resource is listed in (its kind under its parent), or undefined for the profile, which is only read. */
export function collectionOf(ref: AfdRef): string | undefined {
  return ref.kind === 'profile' ? undefined : `${ref.kind}/${refParent(ref) ?? ''}`.toLowerCase();
}

/** Every resource of the collection `ref` is in (ARM's list: one read per page of 100). */
export function listCollection(
  cdn: CdnManagementClient,
  rg: string,
  ref: Exclude<AfdRef, { kind: 'profile' }>,
  call: Call,
): AsyncIterable<Written & { name?: string }> {
  switch (ref.kind) {
    case 'endpoint':
      return cdn.afdEndpoints.listByProfile(rg, ref.profile, call);
    case 'customDomain':
      return cdn.afdCustomDomains.listByProfile(rg, ref.profile, call);
    case 'originGroup':
      return cdn.afdOriginGroups.listByProfile(rg, ref.profile, call);
    case 'origin':
      return cdn.afdOrigins.listByOriginGroup(rg, ref.profile, ref.originGroup, call);
    case 'route':
      return cdn.routes.listByEndpoint(rg, ref.profile, ref.endpoint, call);
    case 'ruleSet':
      return cdn.ruleSets.listByProfile(rg, ref.profile, call);
    case 'rule':
      return cdn.rules.listByRuleSet(rg, ref.profile, ref.ruleSet, call);
    case 'securityPolicy':
      return cdn.securityPolicies.listByProfile(rg, ref.profile, call);
  }
}
