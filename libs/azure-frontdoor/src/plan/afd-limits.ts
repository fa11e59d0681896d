import type { AfdSku } from './spec-types.js';

/**
 * AFD Standard/Premium limits per profile (Azure subscription limits page, front-door-limits include, as collected in
 * ../shared/reference/peer-systems.md §3; composite metric from the AFD routing limits page). A deployment may
 * lower any of them (for example to the scale document's "supported" figures) through `CapacityLimits` overrides.
 */
export interface CapacityLimits {
  readonly endpoints: number;
  readonly originGroups: number;
  readonly origins: number;
  readonly originsPerOriginGroup: number;
  readonly routes: number;
  readonly ruleSets: number;
  readonly rulesPerRuleSet: number;
  readonly securityPolicies: number;
  readonly customDomains: number;
  /** Σ over routes of (HTTP domains × HTTP patterns) + (HTTPS domains × HTTPS patterns). */
  readonly compositeRouteMetric: number;
}

export type CapacityDimension = keyof CapacityLimits;

export const AFD_LIMITS: Readonly<Record<AfdSku, CapacityLimits>> = {
  Standard_AzureFrontDoor: {
    endpoints: 10,
    originGroups: 100,
    origins: 100,
    originsPerOriginGroup: 50,
    routes: 100,
    ruleSets: 100,
    rulesPerRuleSet: 100,
    securityPolicies: 100,
    customDomains: 100,
    compositeRouteMetric: 5000,
  },
  Premium_AzureFrontDoor: {
    endpoints: 25,
    originGroups: 200,
    origins: 200,
    originsPerOriginGroup: 50,
    routes: 200,
    ruleSets: 200,
    rulesPerRuleSet: 100,
    securityPolicies: 200,
    customDomains: 500,
    compositeRouteMetric: 5000,
  },
};

export const DIMENSION_LABELS: Readonly<Record<CapacityDimension, string>> = {
  endpoints: 'endpoints per profile',
  originGroups: 'origin groups per profile',
  origins: 'origins per profile',
  originsPerOriginGroup: 'origins per origin group',
  routes: 'routes per profile',
  ruleSets: 'rule sets per profile',
  rulesPerRuleSet: 'rules per rule set',
  securityPolicies: 'security policies per profile',
  customDomains: 'custom domains per profile',
  compositeRouteMetric: 'composite route metric',
};

/** The limits that apply: AFD's for the SKU, each lowered (never raised) by an override. */
export function limitsFor(sku: AfdSku, overrides: Partial<CapacityLimits> = {}): CapacityLimits {
  const hard = AFD_LIMITS[sku];
  const merged: Record<CapacityDimension, number> = { ...hard };
  for (const key of Object.keys(hard) as CapacityDimension[]) {
    const override = overrides[key];
    if (override !== undefined) merged[key] = Math.min(hard[key], override);
  }
  return merged;
}
