import { AFD, propertiesOf } from '../cdn/afd-common.js';
import { DEFAULT_PATTERNS, DEFAULT_PROTOCOLS } from '../cdn/route-rules.js';
import type { ResourceRecord } from '../arm/store.js';
import { parentKeyOf, resourceKey } from '../arm/resource-id.js';
import { compileRuleSet, type CompiledRule, type RuleBody } from './rules-engine.js';

/** What one simulated edge serves: a pure function of the provisioned ARM state. */
export interface RoutingTable {
  version: number;
  /** By lower-cased host name: the endpoint's generated host and validated custom domains. */
  hosts: Map<string, HostEntry>;
  originGroups: Map<string, OriginGroupEntry>;
}

export interface HostEntry {
  endpointName: string;
  endpointEnabled: boolean;
  frontDoorId: string;
  originResponseTimeoutSeconds: number;
  routes: RouteEntry[];
}

export interface RouteEntry {
  name: string;
  protocols: string[];
  /** Lower-cased: AFD matches paths case-insensitively. */
  patterns: string[];
  originGroupKey: string;
  /** As programmed ('' when none); see origin-path.ts. */
  originPath: string;
  forwardingProtocol: 'HttpOnly' | 'HttpsOnly' | 'MatchRequest';
  httpsRedirect: boolean;
  /** The rules of the route's rule sets, in evaluation order. */
  rules: CompiledRule[];
}

export interface ProbeSettings {
  path: string;
  method: 'GET' | 'HEAD';
  protocol: 'Http' | 'Https';
  intervalSeconds: number;
}

export interface OriginGroupEntry {
  key: string;
  probe?: ProbeSettings;
  sampleSize: number;
  successfulSamplesRequired: number;
  additionalLatencyMs: number;
  origins: OriginEntry[];
}

export interface OriginEntry {
  key: string;
  name: string;
  hostName: string;
  httpPort: number;
  httpsPort: number;
  /** The Host sent to the origin; undefined: the request's own host name (afdx.json: "If you leave this blank..."). */
  hostHeader?: string;
  /** Whether the edge refuses an HTTPS origin whose certificate does not name the host it sends (schema default true). */
  enforceCertificateNameCheck: boolean;
  priority: number;
  weight: number;
  enabled: boolean;
  /** undefined: a public origin; otherwise whether its Private Link connection is Approved. */
  privateLinkApproved?: boolean;
}

export interface RoutingInputs {
  version: number;
  records: readonly ResourceRecord[];
  /** Whether a Private Link origin's connection is Approved and the approval has reached the edge. */
  privateLinkServes: (originKey: string) => boolean;
}

/**
 * Compiles the provisioned (last Succeeded) configuration into what an edge serves. Defaults are AFD's:
 * weight 50, priority 1, additionalLatencyInMilliseconds 50, sampleSize 4, successfulSamplesRequired 3.
 */
export function compileRoutingTable(inputs: RoutingInputs): RoutingTable {
  const byKind = new Map<string, ResourceRecord[]>();
  for (const record of inputs.records) {
    if (record.applied === undefined) continue;
    const list = byKind.get(record.kindKey) ?? [];
    list.push(record);
    byKind.set(record.kindKey, list);
  }
  const of = (kind: string): ResourceRecord[] => byKind.get(kind) ?? [];
  const originGroups = new Map<string, OriginGroupEntry>();
  for (const group of of(AFD.originGroup)) originGroups.set(group.key, originGroupEntry(group));
  for (const origin of of(AFD.origin)) {
    originGroups.get(parentKeyOf(origin.key))?.origins.push(originEntry(origin, inputs.privateLinkServes));
  }
  const profiles = new Map(of(AFD.profile).map((profile) => [profile.key, profile]));
  const endpoints = new Map(of(AFD.endpoint).map((endpoint) => [endpoint.key, endpoint]));
  const validatedDomains = new Map(
    of(AFD.customDomain)
      .filter((domain) => domain.internal.validationState === 'Approved')
      .map((domain) => [domain.key, String(propertiesOf(domain, true).hostName).toLowerCase()]),
  );
  const rulesByRuleSet = new Map<string, Array<{ name: string; properties: RuleBody }>>();
  for (const rule of of(AFD.rule)) {
    const list = rulesByRuleSet.get(parentKeyOf(rule.key)) ?? [];
    list.push({ name: rule.name, properties: propertiesOf(rule, true) as RuleBody });
    rulesByRuleSet.set(parentKeyOf(rule.key), list);
  }
  const compiledRuleSets = new Map([...rulesByRuleSet].map(([key, rules]) => [key, compileRuleSet(rules)]));
  const hosts = new Map<string, HostEntry>();
  const hostEntry = (host: string, endpoint: ResourceRecord): HostEntry => {
    let entry = hosts.get(host);
    if (entry === undefined) {
      const profile = profiles.get(parentKeyOf(endpoint.key));
      const timeout = propertiesOf(profile, true).originResponseTimeoutSeconds;
      entry = {
        endpointName: endpoint.name,
        endpointEnabled: propertiesOf(endpoint, true).enabledState !== 'Disabled',
        frontDoorId: String(profile?.internal.frontDoorId ?? ''),
        originResponseTimeoutSeconds: typeof timeout === 'number' ? timeout : 60,
        routes: [],
      };
      hosts.set(host, entry);
    }
    return entry;
  };
  for (const endpoint of endpoints.values()) hostEntry(String(endpoint.internal.hostName).toLowerCase(), endpoint);
  for (const route of of(AFD.route)) {
    const endpoint = endpoints.get(parentKeyOf(route.key));
    const properties = propertiesOf(route, true);
    if (endpoint === undefined || properties.enabledState === 'Disabled') continue;
    const ruleSets = (properties.ruleSets as Array<{ id?: string }> | undefined) ?? [];
    const rules = ruleSets.flatMap((ruleSet) => compiledRuleSets.get(resourceKey(String(ruleSet.id))) ?? []);
    const entry = routeEntry(route.name, properties, rules);
    if (properties.linkToDefaultDomain === 'Enabled') hostEntry(String(endpoint.internal.hostName).toLowerCase(), endpoint).routes.push(entry);
    for (const domain of (properties.customDomains as Array<{ id?: string }> | undefined) ?? []) {
      const host = validatedDomains.get(resourceKey(String(domain.id)));
      if (host !== undefined) hostEntry(host, endpoint).routes.push(entry);
    }
  }
  return { version: inputs.version, hosts, originGroups };
}

/** The host a request names, or the wildcard custom domain covering it (`*.example.com` covers `a.example.com`). */
export function hostKeyFor(table: RoutingTable, host: string): string | undefined {
  if (table.hosts.has(host)) return host;
  const wildcard = `*.${host.split('.').slice(1).join('.')}`;
  return host.includes('.') && table.hosts.has(wildcard) ? wildcard : undefined;
}

function routeEntry(name: string, properties: Record<string, unknown>, rules: CompiledRule[]): RouteEntry {
  return {
    name,
    protocols: (properties.supportedProtocols as string[] | undefined) ?? DEFAULT_PROTOCOLS,
    patterns: ((properties.patternsToMatch as string[] | undefined) ?? DEFAULT_PATTERNS).map((pattern) => pattern.toLowerCase()),
    originGroupKey: resourceKey(String((properties.originGroup as { id?: string } | undefined)?.id ?? '')),
    originPath: typeof properties.originPath === 'string' ? properties.originPath : '',
    forwardingProtocol: (properties.forwardingProtocol as RouteEntry['forwardingProtocol'] | undefined) ?? 'MatchRequest',
    httpsRedirect: properties.httpsRedirect === 'Enabled',
    rules,
  };
}

function originGroupEntry(group: ResourceRecord): OriginGroupEntry {
  const properties = propertiesOf(group, true);
  const balancing = (properties.loadBalancingSettings ?? {}) as Record<string, number | undefined>;
  const probe = properties.healthProbeSettings as Record<string, unknown> | undefined;
  return {
    key: group.key,
    ...(probe === undefined
      ? {}
      : {
          probe: {
            path: typeof probe.probePath === 'string' ? probe.probePath : '/',
            method: probe.probeRequestType === 'GET' ? 'GET' : 'HEAD',
            protocol: probe.probeProtocol === 'Https' ? 'Https' : 'Http',
            intervalSeconds: typeof probe.probeIntervalInSeconds === 'number' ? probe.probeIntervalInSeconds : 100,
          },
        }),
    sampleSize: balancing.sampleSize ?? 4,
    successfulSamplesRequired: balancing.successfulSamplesRequired ?? 3,
    additionalLatencyMs: balancing.additionalLatencyInMilliseconds ?? 50,
    origins: [],
  };
}

function originEntry(origin: ResourceRecord, privateLinkServes: (key: string) => boolean): OriginEntry {
  const properties = propertiesOf(origin, true);
  const hostName = String(properties.hostName);
  const isPrivate = properties.sharedPrivateLinkResource !== undefined;
  return {
    key: origin.key,
    name: origin.name,
    hostName,
    httpPort: typeof properties.httpPort === 'number' ? properties.httpPort : 80,
    httpsPort: typeof properties.httpsPort === 'number' ? properties.httpsPort : 443,
    ...(typeof properties.originHostHeader === 'string' && properties.originHostHeader !== '' ? { hostHeader: properties.originHostHeader } : {}),
    enforceCertificateNameCheck: properties.enforceCertificateNameCheck !== false,
    priority: typeof properties.priority === 'number' ? properties.priority : 1,
    weight: typeof properties.weight === 'number' ? properties.weight : 50,
    enabled: properties.enabledState !== 'Disabled',
    ...(isPrivate ? { privateLinkApproved: privateLinkServes(origin.key) } : {}),
  };
}
