import type { AFDDomain, AFDEndpoint, AFDOrigin, AFDOriginGroup, CdnManagementClient, Profile, Route, Rule, RuleSet, SecurityPolicy } from '@azure/arm-cdn';
import type { FrontDoorScope } from '../plan/afd-refs.js';
import { isNotFound } from '@fleet-gateway/arm-runtime';
import { checkOwnership, type Owner } from '../plan/ownership.js';
import { ArmRequestCount } from '@fleet-gateway/arm-runtime';

/** What ARM reports about one resource: its SDK object, with its parent names where the kind has a parent. */
export interface Observed<T> {
  readonly name: string;
  readonly parent?: string;
  readonly arm: T;
}

/**
 * The whole graph under one profile, as ARM reports it. `profile` is absent when the profile does not exist.
 * Endpoints without our tags are listed in `foreignEndpoints` and never read further.
 */
export interface ObservedGraph {
  readonly profile?: Profile;
  readonly endpoints: readonly Observed<AFDEndpoint>[];
  readonly foreignEndpoints: readonly string[];
  readonly customDomains: readonly Observed<AFDDomain>[];
  readonly originGroups: readonly Observed<AFDOriginGroup>[];
  readonly origins: readonly Observed<AFDOrigin>[];
  readonly ruleSets: readonly Observed<RuleSet>[];
  readonly rules: readonly Observed<Rule>[];
  readonly routes: readonly Observed<Route>[];
  readonly securityPolicies: readonly Observed<SecurityPolicy>[];
  /** ARM reads (list pages and GETs) this observation took; see `observeFrontDoor` for the formula. */
  readonly reads: number;
}

export const EMPTY_GRAPH: ObservedGraph = {
  endpoints: [],
  foreignEndpoints: [],
  customDomains: [],
  originGroups: [],
  origins: [],
  ruleSets: [],
  rules: [],
  routes: [],
  securityPolicies: [],
  reads: 0,
};

export interface ObserveOptions {
  /** Reads in flight at once (default 8); the shared rate limiter still applies to each. */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Where the reads are counted too (the reconcile's count); the result's `reads` counts this call's alone. */
  readonly requests?: ArmRequestCount;
}

async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) items.push(item);
  return items;
}

/** Like Promise.all, but waits for every read to end before failing, so that no request outlives the reconcile. */
async function settleAll<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * Runs `work` over `items` with at most `limit` in flight, keeping the input order in the result. After a failure
 * no new item starts, and the first failure is thrown once the running ones have ended.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw failure.error;
  return results;
}

function named<T extends { name?: string }>(items: readonly T[], parent?: string): Observed<T>[] {
  return items.map((arm) => ({ name: arm.name ?? '', ...(parent === undefined ? {} : { parent }), arm }));
}

/**
 * Reads the graph under the profile with the fewest calls ARM allows (ARM has no list of a profile's routes, origins
 * or rules): the profile, one list per child kind of the profile (endpoints, custom domains, origin groups, rule sets,
 * security policies), then one list per owned endpoint (routes), per origin group (origins) and per rule set (rules).
 * Reads = 1 when the profile is absent, else 6 + E + G + S when no list exceeds a page (E owned endpoints, G origin
 * groups, S rule sets); in general 1 + Σ over the 5 + E + G + S lists of max(1, ⌈items / page size⌉), ARM's page
 * size being 100. Any failure throws: nothing is written on a partial picture.
 */
export async function observeFrontDoor(
  cdn: CdnManagementClient,
  scope: FrontDoorScope,
  profileName: string,
  owner: Owner,
  options: ObserveOptions = {},
): Promise<ObservedGraph> {
  const rg = scope.resourceGroup;
  const count = new ArmRequestCount(options.requests);
  const call = { ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}), onResponse: count.onResponse };
  const limit = options.concurrency ?? 8;
  let profile: Profile;
  try {
    profile = await cdn.profiles.get(rg, profileName, call);
  } catch (error) {
    if (isNotFound(error)) return { ...EMPTY_GRAPH, reads: count.reads };
    throw error;
  }
  const [endpoints, customDomains, originGroups, ruleSets, securityPolicies] = await settleAll([
    collect(cdn.afdEndpoints.listByProfile(rg, profileName, call)),
    collect(cdn.afdCustomDomains.listByProfile(rg, profileName, call)),
    collect(cdn.afdOriginGroups.listByProfile(rg, profileName, call)),
    collect(cdn.ruleSets.listByProfile(rg, profileName, call)),
    collect(cdn.securityPolicies.listByProfile(rg, profileName, call)),
  ]);
  const owned = endpoints.filter((e) => checkOwnership(e.tags, owner).owned);
  const foreignEndpoints = endpoints.filter((e) => !owned.includes(e)).map((e) => e.name ?? '');
  type Job = { kind: 'routes' | 'origins' | 'rules'; parent: string };
  const jobs: Job[] = [
    ...owned.map((e) => ({ kind: 'routes' as const, parent: e.name ?? '' })),
    ...originGroups.map((g) => ({ kind: 'origins' as const, parent: g.name ?? '' })),
    ...ruleSets.map((s) => ({ kind: 'rules' as const, parent: s.name ?? '' })),
  ];
  const children = await mapBounded(jobs, limit, async (job) => {
    if (job.kind === 'routes') return { job, items: await collect<Route | AFDOrigin | Rule>(cdn.routes.listByEndpoint(rg, profileName, job.parent, call)) };
    if (job.kind === 'origins')
      return { job, items: await collect<Route | AFDOrigin | Rule>(cdn.afdOrigins.listByOriginGroup(rg, profileName, job.parent, call)) };
    return { job, items: await collect<Route | AFDOrigin | Rule>(cdn.rules.listByRuleSet(rg, profileName, job.parent, call)) };
  });
  const of = <T extends { name?: string }>(kind: Job['kind']) =>
    children.filter((c) => c.job.kind === kind).flatMap((c) => named(c.items as T[], c.job.parent));
  return {
    profile,
    endpoints: named(owned),
    foreignEndpoints,
    customDomains: named(customDomains),
    originGroups: named(originGroups),
    origins: of<AFDOrigin>('origins'),
    ruleSets: named(ruleSets),
    rules: of<Rule>('rules'),
    routes: of<Route>('routes'),
    securityPolicies: named(securityPolicies),
    reads: count.reads,
  };
}
