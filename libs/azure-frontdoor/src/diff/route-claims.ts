import type { Route, Rule } from '@azure/arm-cdn';
import { nameFromId } from '../plan/afd-refs.js';
import { compareText } from '../plan/canonical.js';
import type { Observed } from '../observe/observe.js';
import { describeDomainKey, domainKey, routeDomainKeys, specDomainKeys } from '../plan/route-patterns.js';
import type { HeldPattern, RouteSpec } from '../plan/spec-types.js';

/**
 * Which AFD route holds which (domain, pattern, protocol) of the endpoint, now and after the reconcile.
 * AFD refuses a route that claims a (domain, pattern, protocol) another route of the endpoint holds, so a desired route
 * that replaces an observed one takes over that route's name (one PUT switches it, make-before-break), and a route
 * that takes patterns from another waits until that one has given them up.
 */
export interface RouteClaims {
  /** The desired routes to converge, each under the name of the observed route it takes over, if any. */
  readonly routes: readonly RouteSpec[];
  /** Observed routes kept exactly as they are (lower-case name → name and why). */
  readonly frozen: ReadonlyMap<string, { readonly name: string; readonly cause: string }>;
  /** Desired routes that cannot be written while a frozen route holds their patterns. */
  readonly blocked: readonly { readonly route: RouteSpec; readonly cause: string }[];
  /** Route (lower-case name) → the routes that must give up a (pattern, protocol) before it takes it. */
  readonly waitsFor: ReadonlyMap<string, readonly string[]>;
  /**
   * Routes (lower-case name) of a wait cycle (two routes swapping patterns) → the patterns each keeps in a first write
   * that gives up what the other routes want, so they can take it before this route takes its final patterns.
   */
  readonly handovers: ReadonlyMap<string, readonly string[]>;
}

function claimKey(domain: string, pattern: string, protocol: string): string {
  return `${pattern.toLowerCase()} over ${protocol} on ${describeDomainKey(domain)}`;
}

function keysOf(domains: readonly string[], patterns: readonly string[] | undefined, protocols: readonly string[] | undefined): string[] {
  return domains.flatMap((domain) => (patterns ?? []).flatMap((pattern) => (protocols ?? []).map((protocol) => claimKey(domain, pattern, protocol))));
}

const specKeys = (route: RouteSpec): string[] => keysOf(specDomainKeys(route), route.patterns, route.supportedProtocols);
const observedKeys = (route: Observed<Route>): string[] =>
  keysOf(
    routeDomainKeys(
      route.arm.linkToDefaultDomain === 'Enabled',
      (route.arm.customDomains ?? []).map((d) => nameFromId(d.id) ?? ''),
    ),
    route.arm.patternsToMatch,
    route.arm.supportedProtocols,
  );
const heldKey = (h: HeldPattern): string => claimKey(domainKey(h.customDomain), h.pattern, h.protocol);
const lower = (name: string): string => name.toLowerCase();

/** Frozen routes, then every desired route that would collide with one: blocked, its own AFD route frozen too. */
function freeze(routes: readonly RouteSpec[], held: readonly HeldPattern[], observed: readonly Observed<Route>[], owner: ReadonlyMap<string, Observed<Route>>) {
  const frozen = new Map<string, { name: string; cause: string }>();
  for (const h of held) {
    const route = owner.get(heldKey(h));
    if (route && !frozen.has(lower(route.name))) {
      frozen.set(lower(route.name), { name: route.name, cause: `kept as last programmed: it serves ${heldKey(h)}, held while ${h.cause}` });
    }
  }
  const byName = new Map(observed.map((o) => [lower(o.name), o]));
  const collision = (route: RouteSpec, own: string): string | undefined => {
    for (const k of specKeys(route)) {
      const holder = owner.get(k);
      const kept = holder && lower(holder.name) !== own ? frozen.get(lower(holder.name)) : undefined;
      if (holder && kept) return `${k} is held by route ${holder.name}, ${kept.cause}`;
    }
    return undefined;
  };
  const blocked = new Map<RouteSpec, string>();
  // Each pass blocks at least one more route or ends, so at most routes.length + 1 passes.
  for (let changed = true; changed;) {
    changed = false;
    for (const route of routes) {
      if (blocked.has(route)) continue;
      const own = lower(route.ref.route);
      const cause = frozen.get(own)?.cause ?? collision(route, own);
      if (cause === undefined) continue;
      blocked.set(route, cause);
      changed = true;
      const mine = byName.get(own);
      if (mine && !frozen.has(own)) frozen.set(own, { name: mine.name, cause: `kept as last programmed: ${cause}` });
    }
  }
  return { frozen, blocked };
}

/** A desired route without an AFD route of its name takes over the unclaimed observed route it overlaps most. */
function adopt(routes: readonly RouteSpec[], observed: readonly Observed<Route>[], frozen: ReadonlyMap<string, unknown>): RouteSpec[] {
  const observedNames = new Set(observed.map((o) => lower(o.name)));
  const desiredNames = new Set(routes.map((r) => lower(r.ref.route)));
  const pool = observed.filter((o) => !frozen.has(lower(o.name)) && !desiredNames.has(lower(o.name))).sort((a, b) => compareText(a.name, b.name));
  return routes.map((route) => {
    if (observedNames.has(lower(route.ref.route))) return route;
    const wanted = new Set(specKeys(route));
    let best: { route: Observed<Route>; overlap: number } | undefined;
    for (const candidate of pool) {
      const overlap = observedKeys(candidate).filter((k) => wanted.has(k)).length;
      if (overlap > (best?.overlap ?? 0)) best = { route: candidate, overlap };
    }
    if (!best) return route;
    pool.splice(pool.indexOf(best.route), 1);
    return { ...route, ref: { ...route.ref, route: best.route.name } };
  });
}

/**
 * Resolves the desired routes against the endpoint's observed routes (pure): held patterns freeze the routes that
 * serve them, desired routes that would collide with a frozen one are blocked, the rest take over the observed
 * routes they replace and learn which routes must give up patterns first.
 */
export function resolveRouteClaims(routes: readonly RouteSpec[], held: readonly HeldPattern[], observed: readonly Observed<Route>[]): RouteClaims {
  const owner = new Map<string, Observed<Route>>();
  for (const route of observed) for (const k of observedKeys(route)) if (!owner.has(k)) owner.set(k, route);
  const { frozen, blocked } = freeze(routes, held, observed, owner);
  const adopted = adopt(
    routes.filter((r) => !blocked.has(r)),
    observed,
    frozen,
  );
  const waitsFor = new Map<string, string[]>();
  for (const route of adopted) {
    const own = lower(route.ref.route);
    const holders = new Set(
      specKeys(route).flatMap((k) => {
        const holder = lower(owner.get(k)?.name ?? own);
        return holder === own ? [] : [holder];
      }),
    );
    if (holders.size > 0) waitsFor.set(own, [...holders].sort(compareText));
  }
  return {
    routes: adopted,
    frozen,
    blocked: [...blocked].map(([route, cause]) => ({ route, cause })),
    waitsFor,
    handovers: handovers(adopted, observed, owner, waitsFor),
  };
}

function inCycle(name: string, waitsFor: ReadonlyMap<string, readonly string[]>): boolean {
  const seen = new Set<string>();
  const pending = [...(waitsFor.get(name) ?? [])];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next === name) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(waitsFor.get(next) ?? []));
  }
  return false;
}

/**
 * Each route of a wait cycle keeps, in its first write, the observed patterns no other route holds or wants. One left
 * with none hands nothing over: no public record says AFD accepts a route without a pattern (the schema is silent)
 * or that a disabled route gives up its claims, so such a cycle stays unordered and the refused write is reported.
 * Between a hand-over and the write of the route that takes what it gave up, no route serves those patterns: their
 * requests briefly go to the default route (the next pattern that matches, often `/*`). That is the price of the swap,
 * since AFD allows one route per (domain, pattern, protocol) at any moment and no order of whole writes swaps them.
 */
function handovers(
  adopted: readonly RouteSpec[],
  observed: readonly Observed<Route>[],
  owner: ReadonlyMap<string, Observed<Route>>,
  waitsFor: ReadonlyMap<string, readonly string[]>,
): Map<string, string[]> {
  const wantedBy = new Map<string, string>();
  for (const route of adopted) for (const k of specKeys(route)) wantedBy.set(k, lower(route.ref.route));
  const observedByName = new Map(observed.map((o) => [lower(o.name), o]));
  const result = new Map<string, string[]>();
  for (const route of adopted) {
    const own = lower(route.ref.route);
    const current = observedByName.get(own);
    if (!current || !inCycle(own, waitsFor)) continue;
    const domains = specDomainKeys(route);
    const kept = (current.arm.patternsToMatch ?? []).filter((pattern) =>
      keysOf(domains, [pattern], route.supportedProtocols).every((k) => (wantedBy.get(k) ?? own) === own && lower(owner.get(k)?.name ?? own) === own),
    );
    if (kept.length > 0) result.set(own, kept);
  }
  return result;
}

/**
 * The order of the route writes: 0 for a route that takes nothing from another, else one more than the routes it
 * waits for. A route that hands over gives up its contested patterns in a first write in wave 0, so the routes
 * waiting for it wait for that write only: that breaks its cycle. A cycle without a handover cannot be ordered; AFD
 * refuses one write and the report says so.
 */
export function routeWaves(waitsFor: ReadonlyMap<string, readonly string[]>, handovers: ReadonlyMap<string, unknown> = new Map()): Map<string, number> {
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (name: string): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return 0;
    visiting.add(name);
    const wave = Math.max(-1, ...(waitsFor.get(name) ?? []).map((holder) => (handovers.has(holder) ? 0 : visit(holder)))) + 1;
    visiting.delete(name);
    depth.set(name, wave);
    return wave;
  };
  for (const [name, holders] of waitsFor) {
    visit(name);
    holders.forEach(visit);
  }
  return depth;
}

export type Kept = Map<string, { readonly name: string; readonly cause: string }>;

/** What frozen routes need to keep working: their origin groups and rule sets, and the groups their rules override to. */
export function frozenDependencies(routes: readonly Observed<Route>[], rules: readonly Observed<Rule>[]): { groups: Kept; ruleSets: Kept } {
  const groups: Kept = new Map();
  const ruleSets: Kept = new Map();
  const users = new Map<string, string>();
  const add = (into: Kept, id: string | undefined, route: string) => {
    const name = nameFromId(id);
    if (name && !into.has(lower(name))) into.set(lower(name), { name, cause: `kept as last programmed: held route ${route} uses it` });
  };
  for (const route of routes) {
    add(groups, route.arm.originGroup?.id, route.name);
    for (const ruleSet of route.arm.ruleSets ?? []) {
      add(ruleSets, ruleSet.id, route.name);
      users.set(lower(nameFromId(ruleSet.id) ?? ''), route.name);
    }
  }
  for (const rule of rules) {
    const route = users.get(lower(rule.parent ?? ''));
    if (route === undefined) continue;
    for (const action of rule.arm.actions ?? []) {
      const override = action as { name: string; parameters?: { originGroupOverride?: { originGroup?: { id?: string } } } };
      if (override.name === 'RouteConfigurationOverride') add(groups, override.parameters?.originGroupOverride?.originGroup?.id, route);
    }
  }
  return { groups, ruleSets };
}
