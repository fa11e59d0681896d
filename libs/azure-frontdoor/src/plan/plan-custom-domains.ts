import { ANY_HOSTNAME, type GlobalGateway } from '@fleet-gateway/model';
import { customDomainName } from './afd-names.js';
import { compareText } from './canonical.js';
import type { CustomDomainSpec } from './spec-types.js';

/** The AFD custom domain a host is served on; `*` (no hostname) is the endpoint's own default domain. */
export function customDomainOf(hostname: string): string | undefined {
  return hostname === ANY_HOSTNAME ? undefined : customDomainName(hostname);
}

/** One custom domain per distinct hostname the Gateway serves, with an AFD-managed certificate. */
export function planCustomDomains(model: GlobalGateway, profile: string): CustomDomainSpec[] {
  const domains = new Map<string, { hostName: string; listeners: Set<string> }>();
  for (const host of model.routing) {
    const customDomain = customDomainOf(host.hostname);
    if (customDomain === undefined) continue;
    const domain = domains.get(customDomain) ?? { hostName: host.hostname, listeners: new Set<string>() };
    domain.listeners.add(host.listener);
    domains.set(customDomain, domain);
  }
  // Provenance: the listeners that serve the hostname, which carry its validation status; and, for a hostname no
  // listener names (a route's under a wildcard or hostname-less listener), the HTTPRoutes that name it: a refusal of
  // the domain is theirs, not the Gateway's.
  const listenerHosts = new Set(model.listeners.map((l) => l.hostname));
  const namedBy = (hostName: string) =>
    listenerHosts.has(hostName)
      ? []
      : model.routes.filter((r) => r.hostnames.includes(hostName)).map((r) => ({ kind: r.source.kind, namespace: r.source.namespace, name: r.source.name }));
  return [...domains.entries()]
    .map(([customDomain, { hostName, listeners }]): CustomDomainSpec => ({
      ref: { kind: 'customDomain', profile, customDomain },
      hostName,
      minimumTlsVersion: 'TLS12',
      provenance: [...[...listeners].sort(compareText).map((section) => ({ ...model.source, section })), ...namedBy(hostName)],
    }))
    .sort((a, b) => compareText(a.ref.customDomain, b.ref.customDomain));
}
