import { badRequest } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import { resourceKey } from '../arm/resource-id.js';
import type { EmulatorContext } from '../emulator-context.js';
import { WAF_POLICY_KIND_KEY } from '../network/waf-policies.js';
import { AFD, afdChildKind, enforceProfileLimit, profileKeyOf, profileOf, referenceKey } from './afd-common.js';
import { associatedDomains } from './custom-domains.js';

/**
 * Microsoft.Cdn/profiles/securityPolicies. The WAF policy must exist and have the profile's SKU; every associated
 * domain must be an endpoint or custom domain of the profile, and a domain can be in only one security policy; a WAF
 * policy is in at most one security policy of the profile.
 */
export const securityPolicyKind = afdChildKind({
  types: ['profiles', 'securityPolicies'],
  definition: 'SecurityPolicy',
  updateDefinition: 'SecurityPolicyUpdateParameters',
  check(request, context) {
    enforceProfileLimit(request, context, AFD.securityPolicy, context.limits.afd.securityPoliciesPerProfile, 'security policies per profile');
    checkWafPolicy(request, context);
    checkDomains(request, context);
  },
});

function checkWafPolicy(request: WriteRequest, context: EmulatorContext): void {
  const parameters = request.body.properties.parameters as { wafPolicy?: { id?: unknown } } | undefined;
  if (parameters === undefined) throw badRequest("'properties.parameters' is required.");
  const id = parameters.wafPolicy?.id;
  const policy = typeof id === 'string' ? context.store.get(resourceKey(id)) : undefined;
  if (policy === undefined || policy.kindKey !== WAF_POLICY_KIND_KEY) {
    throw badRequest(`'properties.parameters.wafPolicy.id' must reference an existing Front Door WAF policy; got ${JSON.stringify(id ?? null)}.`);
  }
  // One WAF policy is in at most one security policy of a profile (A78).
  const sharing = context.store
    .ofKind(AFD.securityPolicy, profileKeyOf(request.path))
    .find(
      (other) => other.key !== request.key && referenceKey((other.body.properties.parameters as { wafPolicy?: unknown } | undefined)?.wafPolicy) === policy.key,
    );
  if (sharing !== undefined) {
    throw badRequest(
      `WAF policy '${policy.name}' is already associated with security policy '${sharing.name}' of this profile; a WAF policy can be in one security policy per profile.`,
    );
  }
  const profile = profileOf(request, context);
  if (policy.body.sku?.name !== profile.body.sku?.name) {
    throw badRequest(
      `WAF policy '${policy.name}' has SKU '${policy.body.sku?.name}' but profile '${profile.name}' is '${profile.body.sku?.name}'; they must match.`,
    );
  }
}

function checkDomains(request: WriteRequest, context: EmulatorContext): void {
  const profileKey = profileKeyOf(request.path);
  const domains = associatedDomains(request.body.properties);
  const taken = new Map<string, string>();
  for (const policy of context.store.ofKind(AFD.securityPolicy, profileKey)) {
    if (policy.key === request.key) continue;
    for (const domain of associatedDomains(policy.body.properties)) taken.set(referenceKey(domain) ?? '', policy.name);
  }
  domains.forEach((domain, i) => {
    const key = referenceKey(domain);
    const target = key === undefined ? undefined : context.store.get(key);
    const isDomain = target !== undefined && (target.kindKey === AFD.endpoint || target.kindKey === AFD.customDomain);
    if (!isDomain || !target.key.startsWith(`${profileKey}/`)) {
      throw badRequest(`'properties.parameters.associations.domains[${i}]' must reference an endpoint or custom domain of the profile.`);
    }
    const owner = taken.get(target.key);
    if (owner !== undefined) throw badRequest(`Domain '${target.name}' is already associated with security policy '${owner}'.`);
  });
}
