/**
 * Service limits the emulator enforces. Sources: Azure Front Door Standard/Premium limits
 * (https://learn.microsoft.com/azure/frontdoor/front-door-routing-limits and the subscription limits page,
 * via ../shared/reference/peer-systems.md §3) and the Private Link / Load Balancer limits
 * (../shared/reference/upstream-contract.md §3.1). Tests may lower them to reach them quickly.
 */
export interface PerSku {
  standard: number;
  premium: number;
}

export interface AfdLimits {
  profilesPerSubscription: number;
  endpointsPerProfile: PerSku;
  customDomainsPerProfile: PerSku;
  originGroupsPerProfile: PerSku;
  originsPerProfile: PerSku;
  originsPerOriginGroup: PerSku;
  routesPerProfile: PerSku;
  ruleSetsPerProfile: PerSku;
  rulesPerRuleSet: PerSku;
  /** Rules across all the rule sets one route references. */
  rulesPerRoute: PerSku;
  securityPoliciesPerProfile: PerSku;
  secretsPerProfile: PerSku;
  /** Σ over routes of (HTTP domains × HTTP paths) + (HTTPS domains × HTTPS paths). */
  compositeRouteMetricPerProfile: PerSku;
  originResponseTimeoutSecondsMax: number;
  wafPoliciesPerSubscription: number;
  /** Rules engine limits per rule, and the longest header values (the limits page's "other limits"). */
  conditionsPerRule: number;
  actionsPerRule: number;
  ruleConditionHeaderValueLength: number;
  ruleActionHeaderValueLength: number;
}

export interface NetworkLimits {
  privateLinkServicesPerStandardLoadBalancer: number;
  privateEndpointConnectionsPerPrivateLinkService: number;
  privateLinkServicesPerSubscription: number;
  ipConfigurationsPerPrivateLinkService: number;
  frontendIpConfigurationsPerLoadBalancer: number;
  loadBalancingRulesPerLoadBalancer: number;
}

export interface Limits {
  afd: AfdLimits;
  network: NetworkLimits;
}

const DEFAULT_LIMITS: Limits = {
  afd: {
    profilesPerSubscription: 500,
    endpointsPerProfile: { standard: 10, premium: 25 },
    customDomainsPerProfile: { standard: 100, premium: 500 },
    originGroupsPerProfile: { standard: 100, premium: 200 },
    originsPerProfile: { standard: 100, premium: 200 },
    originsPerOriginGroup: { standard: 50, premium: 50 },
    routesPerProfile: { standard: 100, premium: 200 },
    ruleSetsPerProfile: { standard: 100, premium: 200 },
    rulesPerRuleSet: { standard: 100, premium: 100 },
    rulesPerRoute: { standard: 100, premium: 100 },
    securityPoliciesPerProfile: { standard: 100, premium: 200 },
    secretsPerProfile: { standard: 100, premium: 500 },
    compositeRouteMetricPerProfile: { standard: 5000, premium: 5000 },
    originResponseTimeoutSecondsMax: 240,
    wafPoliciesPerSubscription: 100,
    conditionsPerRule: 10,
    actionsPerRule: 5,
    ruleConditionHeaderValueLength: 256,
    ruleActionHeaderValueLength: 640,
  },
  network: {
    privateLinkServicesPerStandardLoadBalancer: 8,
    privateEndpointConnectionsPerPrivateLinkService: 1000,
    privateLinkServicesPerSubscription: 800,
    ipConfigurationsPerPrivateLinkService: 8,
    frontendIpConfigurationsPerLoadBalancer: 600,
    loadBalancingRulesPerLoadBalancer: 1500,
  },
};

export interface LimitOverrides {
  afd?: Partial<AfdLimits>;
  network?: Partial<NetworkLimits>;
}

export function resolveLimits(overrides: LimitOverrides = {}): Limits {
  return {
    afd: { ...DEFAULT_LIMITS.afd, ...overrides.afd },
    network: { ...DEFAULT_LIMITS.network, ...overrides.network },
  };
}
