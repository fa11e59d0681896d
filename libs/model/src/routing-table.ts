import { covers, hostnameSpecificity } from './hostnames.js';
import type { HostRouting, ListenerProtocol, ModelMatch, PathKey, PathRouting, RoutingCandidate } from './model-types.js';
import { compareText } from './names.js';

/** A kept match of a kept rule, with what precedence needs to know about its route. */
export interface RoutedMatch {
  readonly route: string;
  readonly created?: string;
  readonly rule: number;
  readonly matchIndex: number;
  readonly match: ModelMatch;
}

/** The hostnames one route serves through one listener (listener isolation already applied). */
export interface HostAttachment {
  readonly protocol: ListenerProtocol;
  readonly listener: string;
  readonly hostnames: readonly string[];
  readonly matches: readonly RoutedMatch[];
}

/** A match on one host, with what precedence compares worked out once (sorting compares each pair many times). */
interface Entry extends RoutedMatch {
  readonly hostname: string;
  readonly hostRank: readonly [number, number];
  readonly pathRank: number;
  readonly conditions: number;
}

interface Host {
  readonly protocol: ListenerProtocol;
  readonly hostname: string;
  readonly listener: string;
  readonly own: Entry[];
}

export interface RoutingResult {
  readonly routing: HostRouting[];
  /** Per route (`namespace/name`), the matches an identical, higher-precedence match shadows everywhere. */
  readonly shadowed: ReadonlyMap<string, string[]>;
}

function ownKeys(match: ModelMatch): PathKey[] {
  const { type, value } = match.path;
  return type === 'Exact' ? [{ kind: 'Exact', value }] : [{ kind: 'Exact', value }, { kind: 'Subtree', value }];
}

/** The key only this match's own path reaches: the exact path, or the subtree of a prefix. */
function isPrimaryKey(match: ModelMatch, key: PathKey): boolean {
  return key.value === match.path.value && key.kind === (match.path.type === 'Exact' ? 'Exact' : 'Subtree');
}

function pathCovers(match: ModelMatch, key: PathKey): boolean {
  const { type, value } = match.path;
  if (type === 'Exact') return key.kind === 'Exact' && key.value === value;
  return value === '/' || key.value === value || key.value.startsWith(`${value}/`);
}

// A plain literal, not a spread of `m`: spread-built objects fall onto V8's slow paths (see the README's benchmark).
function toEntry(m: RoutedMatch, hostname: string): Entry {
  const { match } = m;
  return {
    route: m.route,
    created: m.created,
    rule: m.rule,
    matchIndex: m.matchIndex,
    match,
    hostname,
    hostRank: hostnameSpecificity(hostname),
    pathRank: match.path.type === 'Exact' ? Number.MAX_SAFE_INTEGER : match.path.value.length,
    conditions: (match.method ? 1 : 0) + match.headers.length + match.queryParams.length,
  };
}

function sameConditions(a: Entry, b: Entry): boolean {
  if (a.conditions !== b.conditions) return false;
  const text = ({ match: m }: Entry) =>
    JSON.stringify([m.method ?? '', [...m.headers].sort((x, y) => compareText(x.name, y.name)), [...m.queryParams].sort((x, y) => compareText(x.name, y.name))]);
  return text(a) === text(b);
}

/** Gateway API precedence: hostname specificity, Exact, longer prefix, method, headers, query, age, name, order. */
function comparePrecedence(a: Entry, b: Entry): number {
  return (
    b.hostRank[0] - a.hostRank[0] ||
    b.hostRank[1] - a.hostRank[1] ||
    b.pathRank - a.pathRank ||
    (b.match.method ? 1 : 0) - (a.match.method ? 1 : 0) ||
    b.match.headers.length - a.match.headers.length ||
    b.match.queryParams.length - a.match.queryParams.length ||
    compareText(a.created ?? '\uffff', b.created ?? '\uffff') ||
    compareText(a.route, b.route) ||
    a.rule - b.rule ||
    a.matchIndex - b.matchIndex
  );
}

function describe(e: Entry): string {
  return `rule ${e.rule} match ${e.matchIndex} (${e.match.path.type} ${e.match.path.value})`;
}

/** `entries` are in precedence order already. */
function candidatesFor(key: PathKey, entries: readonly Entry[], shadowedBy: Map<Entry, Entry>, reached: Set<Entry>): RoutingCandidate[] {
  const kept: Entry[] = [];
  for (const entry of entries) {
    if (!pathCovers(entry.match, key)) continue;
    const blocker = kept.find((k) => k.conditions === 0 || sameConditions(k, entry));
    if (blocker) {
      if (isPrimaryKey(entry.match, key)) shadowedBy.set(entry, blocker);
      continue;
    }
    kept.push(entry);
    reached.add(entry);
  }
  return kept.map((e) => ({
    route: e.route,
    rule: e.rule,
    match: e.matchIndex,
    method: e.match.method,
    headers: e.match.headers,
    queryParams: e.match.queryParams,
  }));
}

function routeHost(host: Host, inherited: readonly Entry[], shadowed: Map<string, string[]>): HostRouting {
  const entries = [...host.own, ...inherited].sort(comparePrecedence);
  const keys = new Map<string, PathKey>();
  for (const e of entries) for (const k of ownKeys(e.match)) keys.set(`${k.value}\u0000${k.kind}`, k);
  const shadowedBy = new Map<Entry, Entry>();
  const reached = new Set<Entry>();
  const paths: PathRouting[] = [...keys.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([, path]) => ({ path, candidates: candidatesFor(path, entries, shadowedBy, reached) }));
  for (const e of host.own) {
    const by = shadowedBy.get(e);
    if (reached.has(e) || !by) continue;
    const notes = shadowed.get(e.route) ?? [];
    notes.push(`${describe(e)} is shadowed on ${host.protocol} host ${host.hostname} by the identical match of HTTPRoute ${by.route} ${describe(by)}`);
    shadowed.set(e.route, notes);
  }
  return { protocol: host.protocol, hostname: host.hostname, listener: host.listener, paths };
}

/**
 * Resolves matching precedence per (protocol, hostname) so that nothing ambiguous reaches the model: for every path
 * key, the ordered candidates that can take its requests, including those of less specific hostnames of the same
 * listener (a route for *.example.com also serves a.example.com unless a more specific match wins).
 */
export function buildRouting(attachments: readonly HostAttachment[]): RoutingResult {
  const hosts = new Map<string, Host>();
  for (const a of attachments) {
    for (const hostname of a.hostnames) {
      const id = `${a.protocol}|${hostname}`;
      const host = hosts.get(id) ?? { protocol: a.protocol, hostname, listener: a.listener, own: [] };
      hosts.set(id, host);
      for (const m of a.matches) host.own.push(toEntry(m, hostname));
    }
  }
  const shadowed = new Map<string, string[]>();
  const routing = [...hosts.values()]
    .sort((a, b) => compareText(a.protocol, b.protocol) || compareText(a.hostname, b.hostname))
    .map((host) => {
      const inherited = [...hosts.values()]
        .filter((w) => w !== host && w.protocol === host.protocol && w.listener === host.listener && covers(w.hostname, host.hostname))
        .flatMap((w) => w.own);
      return routeHost(host, inherited, shadowed);
    });
  return { routing, shadowed };
}
