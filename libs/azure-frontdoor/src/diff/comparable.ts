import type { AFDDomain, AFDEndpoint, AFDOrigin, AFDOriginGroup, Profile, Route, Rule, SecurityPolicy } from '@azure/arm-cdn';
import { nameFromId } from '../plan/afd-refs.js';
import { canonicalJson, compareText } from '../plan/canonical.js';

/**
 * The managed part of an AFD resource, from an SDK object: the body we would send or what ARM returned. Both sides
 * go through the same projection, so server-set fields (ids, provisioning and deployment state, system data, host
 * names) never show up as differences. `null` means "managed and absent"; a missing key means "not ours to manage".
 */
export type Comparable = Readonly<Record<string, unknown>>;

function lowerName(id: string | undefined): string | null {
  return nameFromId(id)?.toLowerCase() ?? null;
}

function sortedNames(refs: readonly { id?: string }[] | undefined): string[] {
  return (refs ?? []).map((r) => lowerName(r.id) ?? '').sort(compareText);
}

/** Server echoes may add nulls, empty lists and type names; ids become lower-cased names (ARM ids ignore case). */
function normalizeDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalizeDeep);
  if (value === null || typeof value !== 'object') return value ?? undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'typeName') continue;
    const normalized = key === 'id' && typeof item === 'string' ? lowerName(item) : normalizeDeep(item);
    if (normalized !== undefined) out[key] = normalized;
  }
  return out;
}

function managedTags(tags: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return { ...(tags ?? {}) };
}

export function comparableProfile(p: Profile): Comparable {
  return { sku: p.sku?.name ?? null, originResponseTimeoutSeconds: p.originResponseTimeoutSeconds ?? null, tags: managedTags(p.tags) };
}

export function comparableEndpoint(e: AFDEndpoint): Comparable {
  return { enabledState: e.enabledState ?? null, tags: managedTags(e.tags) };
}

/** The validation state and token are AFD's: they never count as differences. */
export function comparableCustomDomain(d: AFDDomain): Comparable {
  return {
    hostName: d.hostName?.toLowerCase() ?? null,
    certificateType: d.tlsSettings?.certificateType ?? null,
    minimumTlsVersion: d.tlsSettings?.minimumTlsVersion ?? null,
  };
}

export function comparableOriginGroup(g: AFDOriginGroup): Comparable {
  const lb = g.loadBalancingSettings ?? {};
  const probe = g.healthProbeSettings ?? {};
  return {
    sampleSize: lb.sampleSize ?? null,
    successfulSamplesRequired: lb.successfulSamplesRequired ?? null,
    additionalLatencyInMilliseconds: lb.additionalLatencyInMilliseconds ?? null,
    probePath: probe.probePath ?? null,
    probeProtocol: probe.probeProtocol ?? null,
    probeRequestType: probe.probeRequestType ?? null,
    probeIntervalInSeconds: probe.probeIntervalInSeconds ?? null,
    sessionAffinityState: g.sessionAffinityState ?? null,
  };
}

/** `weightManaged` is false for disabled origins: their weight stays whatever it is. */
export function comparableOrigin(o: AFDOrigin, weightManaged = true): Comparable {
  const pl = o.sharedPrivateLinkResource;
  return {
    hostName: o.hostName ?? null,
    httpPort: o.httpPort ?? null,
    httpsPort: o.httpsPort ?? null,
    originHostHeader: o.originHostHeader || null,
    priority: o.priority ?? null,
    ...(weightManaged ? { weight: o.weight ?? null } : {}),
    enabledState: o.enabledState ?? null,
    privateLink: pl?.privateLink?.id?.toLowerCase() ?? null,
    privateLinkLocation: pl?.privateLinkLocation?.toLowerCase() ?? null,
    requestMessage: pl?.requestMessage ?? null,
  };
}

export function comparableRoute(r: Route): Comparable {
  return {
    originGroup: lowerName(r.originGroup?.id),
    ruleSets: sortedNames(r.ruleSets),
    customDomains: sortedNames(r.customDomains),
    patternsToMatch: [...(r.patternsToMatch ?? [])].sort(compareText),
    supportedProtocols: [...(r.supportedProtocols ?? [])].sort(compareText),
    forwardingProtocol: r.forwardingProtocol ?? null,
    // Azure answers `originPath: null` for a route written without one (A54); '' is none too.
    originPath: r.originPath || null,
    linkToDefaultDomain: r.linkToDefaultDomain ?? null,
    httpsRedirect: r.httpsRedirect ?? null,
    enabledState: r.enabledState ?? null,
  };
}

export function comparableRule(r: Rule): Comparable {
  return {
    order: r.order ?? null,
    conditions: canonicalJson(normalizeDeep(r.conditions) ?? []),
    actions: canonicalJson(normalizeDeep(r.actions) ?? []),
    matchProcessingBehavior: r.matchProcessingBehavior ?? null,
  };
}

export function comparableSecurityPolicy(s: SecurityPolicy): Comparable {
  const parameters = s.parameters as { wafPolicy?: { id?: string }; associations?: { domains?: { id?: string }[]; patternsToMatch?: string[] }[] } | undefined;
  return {
    type: s.parameters?.type ?? null,
    wafPolicy: parameters?.wafPolicy?.id?.toLowerCase() ?? null,
    associations: canonicalJson(
      (parameters?.associations ?? []).map((a) => ({ domains: sortedNames(a.domains), patterns: [...(a.patternsToMatch ?? [])].sort(compareText) })),
    ),
  };
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * What differs, field by field (`weight 333 -> 500`), for every field the desired side manages. Tags compare as a
 * subset: other tags on the resource are left alone.
 */
export function differences(desired: Comparable, observed: Comparable): string[] {
  const changes: string[] = [];
  for (const [key, want] of Object.entries(desired)) {
    if (want === undefined) continue;
    const have = observed[key];
    if (key === 'tags') {
      const wanted = want as Record<string, string>;
      const actual = (have ?? {}) as Record<string, string>;
      for (const [tag, value] of Object.entries(wanted)) {
        if (actual[tag] !== value) changes.push(`tag ${tag} ${show(actual[tag] ?? null)} -> ${show(value)}`);
      }
      continue;
    }
    if (canonicalJson(want) !== canonicalJson(have ?? null)) changes.push(`${key} ${show(have ?? null)} -> ${show(want)}`);
  }
  return changes;
}
