import { patternFor, type FrontDoorPlan } from '@fleet-gateway/azure-frontdoor';
import {
  ANY_HOSTNAME,
  mostSpecificCovering,
  type GlobalGateway,
  type HostRouting,
  type ListenerProtocol,
  type NameValue,
  type PathKey,
  type RoutingCandidate,
} from '@fleet-gateway/model';

/** The request to explain, as a client sends it. */
export interface ExplainRequest {
  readonly scheme?: 'http' | 'https';
  readonly host: string;
  readonly path: string;
  readonly method: string;
  readonly headers: readonly NameValue[];
  readonly query: readonly NameValue[];
}

export interface ExplainedOrigin {
  readonly backend: string;
  readonly cluster: string;
  readonly state: 'enabled' | 'disabled' | 'unknown';
  readonly weight?: number;
  /** Share of the rule's traffic, in percent (enabled origins). */
  readonly percent?: number;
}

export interface Explanation {
  readonly request: ExplainRequest;
  /** What happens to it, in one sentence. */
  readonly outcome: string;
  readonly listener?: { readonly name: string; readonly protocol: ListenerProtocol; readonly hostname: string };
  readonly pathKey?: string;
  /** The HTTPRoute match that takes it, and the candidates before it whose conditions did not hold. */
  readonly match?: { readonly route: string; readonly rule: number; readonly match: number };
  readonly skipped: readonly string[];
  readonly afd?: {
    readonly domain: string;
    readonly route?: string;
    readonly pattern: string;
    readonly rules: readonly string[];
    readonly originGroup?: string;
  };
  readonly origins: readonly ExplainedOrigin[];
}

const describeKey = (key: PathKey) => `${key.kind} ${key.value}`;

/** The host routing a request lands on: `*` only on the endpoint's own hostname, else the most specific hostname covering it. */
function hostRoutingFor(model: GlobalGateway, request: ExplainRequest, endpointHost: string | undefined): HostRouting | undefined {
  const host = request.host.toLowerCase();
  const protocols: ListenerProtocol[] = request.scheme ? [request.scheme === 'https' ? 'HTTPS' : 'HTTP'] : ['HTTPS', 'HTTP'];
  for (const protocol of protocols) {
    const hosts = model.routing.filter((h) => h.protocol === protocol);
    const hostname =
      host === endpointHost?.toLowerCase()
        ? ANY_HOSTNAME
        : mostSpecificCovering(
            hosts.map((h) => h.hostname).filter((h) => h !== ANY_HOSTNAME),
            host,
          );
    const found = hosts.find((h) => h.hostname === hostname);
    if (found) return found;
  }
  return undefined;
}

/** The path key AFD's most specific pattern gives the path: the exact path, else the deepest subtree holding it. */
function pathRoutingFor(routing: HostRouting, path: string) {
  const exact = routing.paths.find((p) => p.path.kind === 'Exact' && p.path.value === path);
  if (exact) return exact;
  const below = routing.paths.filter((p) => p.path.kind === 'Subtree' && (p.path.value === '/' || path.startsWith(`${p.path.value}/`)));
  return below.sort((a, b) => b.path.value.length - a.path.value.length)[0];
}

/** Gateway API: header names compare case-insensitively, values exactly; query parameters and methods exactly. */
function holds(candidate: RoutingCandidate, request: ExplainRequest): string | undefined {
  if (candidate.method && candidate.method !== request.method) return `method is ${request.method}, not ${candidate.method}`;
  for (const header of candidate.headers) {
    const sent = request.headers.find((h) => h.name.toLowerCase() === header.name);
    if (sent?.value !== header.value) return `header ${header.name} is ${sent ? JSON.stringify(sent.value) : 'absent'}, not ${JSON.stringify(header.value)}`;
  }
  for (const param of candidate.queryParams) {
    const sent = request.query.find((q) => q.name === param.name);
    if (sent?.value !== param.value) return `query ${param.name} is ${sent ? JSON.stringify(sent.value) : 'absent'}, not ${JSON.stringify(param.value)}`;
  }
  return undefined;
}

const describeCandidate = (c: RoutingCandidate) => `HTTPRoute ${c.route} rule ${c.rule} match ${c.match}`;

/** The AFD route serving the host routing's domain and the path key's pattern, and the rules the match planned there. */
function afdSide(plan: FrontDoorPlan, routing: HostRouting, key: PathKey, candidate: RoutingCandidate | undefined): NonNullable<Explanation['afd']> {
  const { graph } = plan;
  const domain = routing.hostname === ANY_HOSTNAME ? undefined : graph.customDomains.find((d) => d.hostName === routing.hostname);
  const pattern = patternFor(key);
  const protocol = routing.protocol === 'HTTPS' ? 'Https' : 'Http';
  const route = graph.routes.find(
    (r) =>
      (domain ? r.customDomains.includes(domain.ref.customDomain) : r.customDomains.length === 0) &&
      r.patterns.includes(pattern) &&
      r.supportedProtocols.includes(protocol),
  );
  const [namespace, name] = candidate?.route.split('/') ?? [];
  const fromMatch = (sources: readonly { kind: string; namespace: string; name: string; section?: string }[]) =>
    sources.some((s) => s.kind === 'HTTPRoute' && s.namespace === namespace && s.name === name && s.section === `rule/${candidate?.rule}`);
  const rules = candidate && route ? graph.rules.filter((r) => route.ruleSets.includes(r.ref.ruleSet) && fromMatch(r.provenance)) : [];
  const override = rules.flatMap((r) => r.actions).find((a) => a.type === 'originGroupOverride');
  return {
    domain: domain ? `${domain.ref.customDomain} (${domain.hostName})` : "the endpoint's default domain",
    ...(route ? { route: route.ref.route } : {}),
    pattern,
    rules: rules.map((r) => `${r.ref.ruleSet}/${r.ref.rule}`),
    ...(route ? { originGroup: override?.type === 'originGroupOverride' ? override.originGroup : route.originGroup } : {}),
  };
}

function originsOf(model: GlobalGateway, candidate: RoutingCandidate): ExplainedOrigin[] {
  const rule = model.routes.find((r) => `${r.namespace}/${r.name}` === candidate.route)?.rules.find((r) => r.index === candidate.rule);
  const split = rule?.split === undefined ? undefined : model.splits.find((s) => s.key === rule.split);
  const total = split?.origins.reduce((sum, o) => sum + (o.weight ?? 0), 0) ?? 0;
  return (split?.origins ?? []).map((o) => ({
    backend: o.backend,
    cluster: o.cluster,
    state: o.state,
    ...(o.weight !== undefined ? { weight: o.weight, percent: Math.round((o.weight / total) * 1000) / 10 } : {}),
  }));
}

/**
 * Which listener, route, rule and AFD resources a request meets, from the model and the plan the hub programs (pure):
 * the model's routing table gives the match in Gateway API precedence; the plan gives the AFD route, the rule-set rules
 * planned for that match and the origin group; the model's traffic split gives every origin's weight.
 */
export function explainRequest(model: GlobalGateway, plan: FrontDoorPlan, request: ExplainRequest, endpointHost: string | undefined): Explanation {
  const routing = hostRoutingFor(model, request, endpointHost);
  if (!routing)
    return {
      request,
      outcome: `no listener of the Gateway serves host ${request.host}${request.scheme ? ` over ${request.scheme}` : ''}`,
      skipped: [],
      origins: [],
    };
  const listener = { name: routing.listener, protocol: routing.protocol, hostname: routing.hostname };
  const paths = pathRoutingFor(routing, request.path);
  if (!paths)
    return { request, listener, outcome: `no route of host ${routing.hostname} covers path ${request.path}: AFD answers 404`, skipped: [], origins: [] };
  const skipped: string[] = [];
  const candidate = paths.candidates.find((c) => {
    const why = holds(c, request);
    if (why) skipped.push(`${describeCandidate(c)}: ${why}`);
    return why === undefined;
  });
  const afd = afdSide(plan, routing, paths.path, candidate);
  const base = { request, listener, pathKey: describeKey(paths.path), skipped, afd };
  if (!candidate) return { ...base, outcome: 'no match of this path takes the request (its conditions do not hold): AFD answers 404', origins: [] };
  const match = { route: candidate.route, rule: candidate.rule, match: candidate.match };
  const rule = model.routes.find((r) => `${r.namespace}/${r.name}` === candidate.route)?.rules.find((r) => r.index === candidate.rule);
  const redirect = rule?.filters.find((f) => f.type === 'RequestRedirect');
  const origins = originsOf(model, candidate);
  const outcome = redirect
    ? `redirected (${redirect.type === 'RequestRedirect' ? redirect.statusCode : ''}) by ${describeCandidate(candidate)}`
    : rule?.withdrawn
      ? `answered with Front Door's error: ${describeCandidate(candidate)} is withdrawn (${rule.withdrawn})`
      : `forwarded by ${describeCandidate(candidate)} to ${origins.filter((o) => o.state === 'enabled').length} enabled origins`;
  return { ...base, match, outcome, origins };
}
