import { covers, hostnameSpecificity } from './hostnames.js';
import {
  ANY_HOSTNAME,
  type HostRouting,
  type ListenerProtocol,
  type ModelMatch,
  type PathKey,
  type PathRouting,
  type RoutingCandidate,
} from './model-types.js';
import { compareText } from '@fleet-gateway/api-types';

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
  /** Per route, the matches left out because their path equals an older route's but for case (see `settleCaseCollisions`). */
  readonly caseCollisions: ReadonlyMap<string, string[]>;
}

function ownKeys(match: ModelMatch): PathKey[] {
  const { type, value } = match.path;
  return type === 'Exact'
    ? [{ kind: 'Exact', value }]
    : [
        { kind: 'Exact', value },
        { kind: 'Subtree', value },
      ];
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
    JSON.stringify([
      m.method ?? '',
      [...m.headers].sort((x, y) => compareText(x.name, y.name)),
      [...m.queryParams].sort((x, y) => compareText(x.name, y.name)),
    ]);
  return text(a) === text(b);
}

/** Age order, the tie-break of Gateway API precedence: oldest route, then name, then rule and match order. */
function compareAge(a: Entry, b: Entry): number {
  return compareText(a.created ?? '\uffff', b.created ?? '\uffff') || compareText(a.route, b.route) || a.rule - b.rule || a.matchIndex - b.matchIndex;
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
    compareAge(a, b)
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

const foldedKey = (key: PathKey) => `${key.kind}\u0000${key.value.toLowerCase()}`;

function describeRule(e: Pick<Entry, 'route' | 'rule'>): string {
  return `HTTPRoute ${e.route} rule ${e.rule}`;
}

function hostLabel(host: Host): string {
  return `${host.protocol} ${host.hostname === ANY_HOSTNAME ? "on the endpoint's own hostname" : `host ${host.hostname}`}`;
}

/**
 * Gateway API matches paths case-sensitively; whether AFD Standard/Premium does is not documented (Microsoft states
 * case-insensitive matching for Classic only). A design safe either way never programs two paths of one host that
 * differ only in case: the oldest match (route age, then name, then order) keeps its path, and a newer match that
 * needs a case variant of it is left out, named in its route's status with where its requests go instead.
 */
function settleCaseCollisions(host: Host, entries: readonly Entry[], collisions: Map<string, string[]>): Entry[] {
  const claims = new Map<string, { value: string; by: Entry }>();
  const kept: Entry[] = [];
  const losers: { entry: Entry; key: PathKey; winner: Entry; winnerValue: string }[] = [];
  for (const entry of [...entries].sort(compareAge)) {
    const keys = ownKeys(entry.match);
    const clash = keys.map((key) => ({ key, claim: claims.get(foldedKey(key)) })).find(({ key, claim }) => claim && claim.value !== key.value);
    if (clash?.claim) {
      losers.push({ entry, key: clash.key, winner: clash.claim.by, winnerValue: clash.claim.value });
      continue;
    }
    for (const key of keys) if (!claims.has(foldedKey(key))) claims.set(foldedKey(key), { value: key.value, by: entry });
    kept.push(entry);
  }
  const ordered = kept.sort(comparePrecedence);
  for (const { entry, key, winner, winnerValue } of losers) {
    const next = ordered.find((e) => e.conditions === 0 && pathCovers(e.match, key));
    const elsewhere = next ? `to ${describeRule(next)}` : 'to no route (AFD answers 404)';
    const notes = collisions.get(entry.route) ?? [];
    notes.push(
      `${describe(entry)} is not programmed on ${hostLabel(host)}: AFD may match paths case-insensitively (documented for Front Door Classic only), ` +
        `so it cannot hold both ${key.value} and ${winnerValue} of ${describeRule(winner)}, which is older and wins (Gateway API precedence: oldest route, then name); ` +
        `requests for ${key.value} go ${elsewhere} if AFD matches paths case-sensitively, or to ${describeRule(winner)} and its backends if it matches them case-insensitively`,
    );
    collisions.set(entry.route, notes);
  }
  return ordered;
}

function routeHost(host: Host, inherited: readonly Entry[], shadowed: Map<string, string[]>, collisions: Map<string, string[]>): HostRouting {
  const entries = settleCaseCollisions(host, [...host.own, ...inherited], collisions);
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
  const caseCollisions = new Map<string, string[]>();
  const routing = [...hosts.values()]
    .sort((a, b) => compareText(a.protocol, b.protocol) || compareText(a.hostname, b.hostname))
    .map((host) => {
      const inherited = [...hosts.values()]
        .filter((w) => w !== host && w.protocol === host.protocol && w.listener === host.listener && covers(w.hostname, host.hostname))
        .flatMap((w) => w.own);
      return routeHost(host, inherited, shadowed, caseCollisions);
    });
  return { routing, shadowed, caseCollisions };
}
