import { parseArmId } from '@fleet-gateway/arm-runtime';
/** The AFD resource kinds this provider manages (a managed certificate's secret is AFD's own, never written by us). */
export type AfdKind = 'profile' | 'endpoint' | 'customDomain' | 'originGroup' | 'origin' | 'route' | 'ruleSet' | 'rule' | 'securityPolicy';

/** Where the Gateway's profile lives: the controller-wide subscription and resource group. */
export interface FrontDoorScope {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
}

/**
 * One typed reference per AFD kind, instead of the SDK's positional strings that are easy to swap silently.
 * Names are relative to `profile`.
 */
export type AfdRef =
  | { readonly kind: 'profile'; readonly profile: string }
  | { readonly kind: 'endpoint'; readonly profile: string; readonly endpoint: string }
  | { readonly kind: 'customDomain'; readonly profile: string; readonly customDomain: string }
  | { readonly kind: 'originGroup'; readonly profile: string; readonly originGroup: string }
  | { readonly kind: 'origin'; readonly profile: string; readonly originGroup: string; readonly origin: string }
  | { readonly kind: 'route'; readonly profile: string; readonly endpoint: string; readonly route: string }
  | { readonly kind: 'ruleSet'; readonly profile: string; readonly ruleSet: string }
  | { readonly kind: 'rule'; readonly profile: string; readonly ruleSet: string; readonly rule: string }
  | { readonly kind: 'securityPolicy'; readonly profile: string; readonly securityPolicy: string };

/** The resource's own name (the last segment of its id). */
export function refName(ref: AfdRef): string {
  switch (ref.kind) {
    case 'profile':
      return ref.profile;
    case 'endpoint':
      return ref.endpoint;
    case 'customDomain':
      return ref.customDomain;
    case 'originGroup':
      return ref.originGroup;
    case 'origin':
      return ref.origin;
    case 'route':
      return ref.route;
    case 'ruleSet':
      return ref.ruleSet;
    case 'rule':
      return ref.rule;
    case 'securityPolicy':
      return ref.securityPolicy;
  }
}

/** `kind name` for messages, with the parent where the name alone is ambiguous. */
export function describeRef(ref: AfdRef): string {
  const label = KIND_LABELS[ref.kind];
  if (ref.kind === 'origin') return `${label} ${ref.originGroup}/${ref.origin}`;
  if (ref.kind === 'rule') return `${label} ${ref.ruleSet}/${ref.rule}`;
  return `${label} ${refName(ref)}`;
}

export const KIND_LABELS: Readonly<Record<AfdKind, string>> = {
  profile: 'profile',
  endpoint: 'endpoint',
  customDomain: 'custom domain',
  originGroup: 'origin group',
  origin: 'origin',
  route: 'route',
  ruleSet: 'rule set',
  rule: 'rule',
  securityPolicy: 'security policy',
};

/** The name of the resource's parent below the profile, for the kinds that have one. */
export function refParent(ref: AfdRef): string | undefined {
  if (ref.kind === 'origin') return ref.originGroup;
  if (ref.kind === 'rule') return ref.ruleSet;
  if (ref.kind === 'route') return ref.endpoint;
  return undefined;
}

/** Stable identity of a reference within one profile, for maps and sets. */
export function refKey(ref: AfdRef): string {
  return `${ref.kind}/${refParent(ref) ?? ''}/${refName(ref)}`.toLowerCase();
}

function profileId(scope: FrontDoorScope, profile: string): string {
  return `/subscriptions/${scope.subscriptionId}/resourceGroups/${scope.resourceGroup}/providers/Microsoft.Cdn/profiles/${profile}`;
}

/** The ARM id of a resource, as other resources reference it (`{ id }`). */
export function armId(scope: FrontDoorScope, ref: AfdRef): string {
  const base = profileId(scope, ref.profile);
  switch (ref.kind) {
    case 'profile':
      return base;
    case 'endpoint':
      return `${base}/afdEndpoints/${ref.endpoint}`;
    case 'customDomain':
      return `${base}/customDomains/${ref.customDomain}`;
    case 'originGroup':
      return `${base}/originGroups/${ref.originGroup}`;
    case 'origin':
      return `${base}/originGroups/${ref.originGroup}/origins/${ref.origin}`;
    case 'route':
      return `${base}/afdEndpoints/${ref.endpoint}/routes/${ref.route}`;
    case 'ruleSet':
      return `${base}/ruleSets/${ref.ruleSet}`;
    case 'rule':
      return `${base}/ruleSets/${ref.ruleSet}/rules/${ref.rule}`;
    case 'securityPolicy':
      return `${base}/securityPolicies/${ref.securityPolicy}`;
  }
}

/** The last segment of an ARM id (ids compare case-insensitively, so callers lower-case when comparing). */
export function nameFromId(id: string | undefined): string | undefined {
  return id === undefined ? undefined : parseArmId(id).name;
}
