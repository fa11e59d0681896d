import { KindRegistry } from './arm/context.js';
import { endpointKind } from './cdn/afd-endpoints.js';
import { customDomainKind } from './cdn/custom-domains.js';
import { originGroupKind } from './cdn/origin-groups.js';
import { originKind } from './cdn/origins.js';
import { profileKind } from './cdn/profiles.js';
import { routeKind } from './cdn/routes.js';
import { ruleKind, ruleSetKind } from './cdn/rule-sets.js';
import { secretKind } from './cdn/secrets.js';
import { securityPolicyKind } from './cdn/security-policies.js';
import { loadBalancerKind } from './network/load-balancers.js';
import { privateEndpointConnectionKind } from './network/private-endpoint-connections.js';
import { privateLinkServiceKind } from './network/private-link-services.js';
import { publicIpKind } from './network/public-ip-addresses.js';
import { wafPolicyKind } from './network/waf-policies.js';

/** Every resource type the emulator serves. */
export function createKindRegistry(): KindRegistry {
  const registry = new KindRegistry();
  for (const kind of [
    profileKind,
    endpointKind,
    originGroupKind,
    originKind,
    routeKind,
    ruleSetKind,
    ruleKind,
    securityPolicyKind,
    customDomainKind,
    secretKind,
    loadBalancerKind,
    publicIpKind,
    privateLinkServiceKind,
    privateEndpointConnectionKind,
    wafPolicyKind,
  ]) {
    registry.register(kind);
  }
  return registry;
}
