/**
 * The hub agent programming Azure Front Door at scale, against the emulator in its own process (the CLI, so that the
 * agent does not share its event loop), with ARM's throttling on (ARM's own buckets), the agent's default limiter
 * (half of them, DEFAULT_ARM_BUCKETS) and the operation timings of --operation-timings: `fast` (the emulator's default:
 * every long-running operation ends after 100 ms) or `azure` (Front Door's durations per resource kind and create,
 * update or delete, with jitter seeded by --operation-timing-seed). The hub-under-test's fast retries never act: the
 * figures show no 429 and no failure.
 * 1. cold start: --gateways Gateways × 5 HTTPRoutes × 3 clusters (public origins; the exports written first, as the
 *    members would, and their ServiceImports resolved) created at once: time until all are Programmed, against the
 *    least time the limiter's two buckets allow for one write per planned resource and the reads that are
 *    unavoidable; reads per write, writes per planned resource and 429s from the emulator's counters. With `azure`,
 *    that time is the operations' durations × the plan's levels unless Gateways proceed in parallel: it is reported
 *    as measured. The unavoidable reads, as counted here: one per Gateway, observe finding that its profile does not
 *    exist yet (a GET answered 404 leaves nothing else to read), and one per write, the operation-status read that
 *    learns its outcome once the operation has ended (a client that waits out the operation reads its status once;
 *    the write's answer carries the resource, so a GET after it is avoidable). With `fast` every write is
 *    long-running; with `azure` the writes Front Door answers within the request (origin group creates) need no
 *    status read, so there the read bound is a little above the least (the write bound is the larger at this shape).
 * 2. during that cold start, a bystander: a Gateway programmed before it began, whose HTTPRoute changes once the
 *    emulator has counted writes for half the planned resources: time from that change to the emulator's first write
 *    to the bystander's profile (target: not behind the cold start's queue, within a few seconds).
 * 3. one HTTPRoute change -> the first ARM write the emulator counts, over --changes changes (one Gateway each,
 *    in turn), with the programmed Gateways idle in the caches: p50, p90, p99 and the load average. With `azure`,
 *    more --changes than --gateways change a Gateway whose previous change may still be running: its first write
 *    then waits for that reconcile.
 *
 *   pnpm nx bench gateway-controllers   (or: pnpm tsx libs/gateway-controllers/src/bench/programming-bench.ts
 *     [--gateways 100] [--changes 60] [--operation-timings fast|azure] [--operation-timing-seed <n>])
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { EmulatorAdminClient, startEmulatorProcess, type CounterEntry } from '@fleet-gateway/azure-emulator';
import { allRefs, armId, planFrontDoor, type AfdRef } from '@fleet-gateway/azure-frontdoor';
import { armBucketsShare, DEFAULT_ARM_BUCKETS } from '@fleet-gateway/arm-runtime';
import { TEST_SCOPE, WRITE_METHODS } from '@fleet-gateway/azure-frontdoor/test-support';
import { percentile } from '@fleet-gateway/controller/test-support';
import { resolveGateway } from '@fleet-gateway/model';
import type { CachedGateway } from '../gateway-api-resources.js';
import { collectHubInputs } from '../gateway-inputs.js';
import {
  APP_NAMESPACE,
  applyGatewayWithRoute,
  applyObject,
  conditionOf,
  DEFAULT_SKU,
  HUB_IDENTITY,
  routeBody,
  routePath,
  SCOPE,
  startHubAgainstArm,
  type RunningAgent,
} from '../test-support/hub-under-test.js';
import { applyFleetGateways, applyFleetRoutes, benchRoute, gatewayName, publishFleetExports, routeName, type FleetShape } from '../test-support/bench-fleet.js';
import { tokenBoundSeconds } from './token-bound.js';

/** As the agent runs by default (libs/azure-frontdoor's pendingRequeueMs); it polls operations as it does by default too. */
const PENDING_REQUEUE_MS = 15_000;
const CLUSTERS = ['member-1', 'member-2', 'member-3'];
const OPERATION_TIMINGS = ['fast', 'azure'] as const;
/** A Gateway of its own, not one of the fleet's, with one HTTPRoute of the same name to `svc-0`. */
const BYSTANDER = 'bystander';

/** A bad flag is the caller's mistake: its message, no stack. */
function usage(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function integer(flag: string, value: string | undefined, minimum: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < minimum) usage(`${flag} must be an integer >= ${minimum}; got '${value}'`);
  return n;
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        gateways: { type: 'string', default: '100' },
        changes: { type: 'string', default: '60' },
        'operation-timings': { type: 'string', default: 'fast' },
        'operation-timing-seed': { type: 'string' },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
})();
const gateways = integer('--gateways', values.gateways, 1);
const fleet: FleetShape = { gateways, routesPerGateway: 5, services: gateways * 5, clusters: CLUSTERS };
const changes = integer('--changes', values.changes, 1);
const timings = values['operation-timings'] as (typeof OPERATION_TIMINGS)[number];
if (!OPERATION_TIMINGS.includes(timings)) usage(`--operation-timings must be one of ${OPERATION_TIMINGS.join(', ')}; got '${timings}'`);
const seedFlag = values['operation-timing-seed'];
const seed = seedFlag === undefined ? undefined : integer('--operation-timing-seed', seedFlag, 0);

const loadAverage = () => `${loadavg()[0]!.toFixed(1)}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const bucket = (b: { burst: number; refillPerSecond: number }) => `${b.burst} burst + ${b.refillPerSecond}/s`;

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(everyMs);
  }
  return performance.now();
}

/** The emulator's counters, summed as the bench reads them. */
function totals(entries: readonly CounterEntry[]) {
  const sum = (match: (e: CounterEntry) => boolean) => entries.filter(match).reduce((total, e) => total + e.count, 0);
  return {
    requests: sum(() => true),
    writes: sum((e) => (WRITE_METHODS as readonly string[]).includes(e.method)),
    reads: sum((e) => e.method === 'GET'),
    throttled: sum((e) => e.status === 429),
  };
}

function isProgrammed(gateway: CachedGateway | undefined, routes: number): boolean {
  const condition = conditionOf(gateway, 'Programmed');
  const attached = gateway?.status?.listeners?.[0]?.attachedRoutes ?? 0;
  return condition?.status === 'True' && condition.observedGeneration === gateway?.metadata.generation && attached === routes;
}

function programmedCount(agent: RunningAgent): number {
  let programmed = 0;
  for (let g = 0; g < fleet.gateways; g++) {
    if (isProgrammed(agent.stores.gateways.getByName(gatewayName(g), APP_NAMESPACE), fleet.routesPerGateway)) programmed++;
  }
  return programmed;
}

/** The resources of a Gateway's plan, as the agent resolves it from its caches now. */
function plannedRefs(agent: RunningAgent, name: string): AfdRef[] {
  const gateway = agent.stores.gateways.getByName(name, APP_NAMESPACE);
  if (!gateway) throw new Error(`Gateway ${name} is not in the agent's cache`);
  const model = resolveGateway(collectHubInputs(agent.stores, gateway, DEFAULT_SKU)).model;
  if (!model) throw new Error(`Gateway ${name} does not resolve to a model`);
  return [...allRefs(planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph)];
}

/** Resources the plan of every fleet Gateway has; by kind too. */
function plannedResources(agent: RunningAgent): { total: number; byKind: Map<string, number> } {
  const byKind = new Map<string, number>();
  let total = 0;
  for (let g = 0; g < fleet.gateways; g++) {
    for (const ref of plannedRefs(agent, gatewayName(g))) {
      byKind.set(ref.kind, (byKind.get(ref.kind) ?? 0) + 1);
      total++;
    }
  }
  return { total, byKind };
}

/** Reads and writes the Gateway reconciles reported (each request once, whatever the retry policy repeated). */
function reportedRequests(lines: readonly Record<string, unknown>[]): { reconciles: number; reads: number; writes: number } {
  const observed = lines.filter((l) => l.message === 'observed Azure');
  const sum = (field: string) => observed.reduce((total, l) => total + (typeof l[field] === 'number' ? (l[field] as number) : 0), 0);
  return { reconciles: observed.length, reads: sum('reads'), writes: sum('writes') };
}

const requestsByType = (entries: readonly CounterEntry[]) =>
  entries.map((e) => `${e.method} ${e.resourceType.replace('Microsoft.Cdn/profiles', 'profiles')} ${e.status}: ${e.count}`).sort();

// `fast` is the emulator's default; `azure` and the seed reach it as its own flags.
const emulator = await startEmulatorProcess([
  ...(timings === 'fast' ? [] : ['--operation-timings', timings]),
  ...(seed === undefined ? [] : ['--operation-timing-seed', String(seed)]),
]);
const admin = new EmulatorAdminClient(emulator.adminUrl);
const counted = async () => totals(await admin.requestCounts());

/** Waits until the emulator has counted no request for `quietMs`. */
async function quiet(quietMs: number): Promise<void> {
  let last = (await counted()).requests;
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    await sleep(50);
    const now = (await counted()).requests;
    if (now !== last) [last, since] = [now, performance.now()];
  }
}

/** When the emulator's write count first exceeds `baseline` (its counters, read over its admin API back to back, 1 ms apart). */
async function firstWriteAfter(baseline: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while ((await counted()).writes <= baseline) {
    if (performance.now() > deadline) throw new Error(`no ARM write within ${timeoutMs} ms of a route change`);
    await sleep(1);
  }
  return performance.now();
}

/**
 * Marks the first write to a profile or its children: a fault of no latency per write method, which the emulator
 * takes (and drops from its list) when such a request arrives, before anything else is done with it. Resolves then.
 */
async function firstWriteTo(profileId: string, timeoutMs: number): Promise<() => Promise<number>> {
  const pathPattern = `^${profileId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/|$)`;
  const markers = await Promise.all(WRITE_METHODS.map((method) => admin.injectFault({ kind: 'latency', latencyMs: 0, method, pathPattern, count: 1 })));
  return async () => {
    const at = await until(
      `a write to ${profileId}`,
      async () => {
        const left = new Set((await admin.listFaults()).map((f) => f.id));
        return markers.some((m) => !left.has(m.id));
      },
      timeoutMs,
      5,
    );
    await admin.clearFaults();
    return at;
  };
}

const hub = await (async () => {
  await admin.createResourceGroup({ subscriptionId: TEST_SCOPE.subscriptionId, name: TEST_SCOPE.resourceGroup });
  // `{}`: the agent's default buckets, DEFAULT_ARM_BUCKETS.
  return startHubAgainstArm(emulator, { members: CLUSTERS, limiter: {} });
})().catch(async (error: unknown) => {
  // Its process would outlive this one.
  await emulator.stop();
  throw error;
});
const { limiter } = hub;
try {
  const agent = await hub.startAgent({ pendingRequeueMs: PENDING_REQUEUE_MS, defaultPolling: true });
  await publishFleetExports(hub.client, fleet);
  await until(
    `${fleet.services} ServiceImports listing ${CLUSTERS.length} clusters`,
    () => agent.stores.serviceImports.list().filter((si) => si.status?.clusters?.length === CLUSTERS.length).length === fleet.services,
    600_000,
  );
  await applyFleetRoutes(hub.client, fleet);
  await applyGatewayWithRoute(hub.client, BYSTANDER, { backend: 'svc-0' });
  await until(
    `Gateway ${BYSTANDER} Programmed`,
    () => isProgrammed(agent.stores.gateways.getByName(BYSTANDER, APP_NAMESPACE), 1),
    timings === 'fast' ? 120_000 : 3_600_000,
  );
  const bystanderRefs = plannedRefs(agent, BYSTANDER);
  const bystanderProfile = bystanderRefs.find((ref) => ref.kind === 'profile');
  if (!bystanderProfile) throw new Error(`Gateway ${BYSTANDER}'s plan has no profile`);
  await quiet(3_000);
  await admin.resetCounters();
  const lineMark = hub.logs.lines.length;
  const loadAtStart = loadAverage();

  // 1. cold start
  const started = performance.now();
  await applyFleetGateways(hub.client, fleet);
  await until(`the agent's cache holding ${fleet.gateways + 1} Gateways`, () => agent.stores.gateways.size === fleet.gateways + 1, 60_000, 10);
  const planned = plannedResources(agent);
  const unavoidableReads = fleet.gateways + planned.total;
  const writeBoundS = tokenBoundSeconds(planned.total, DEFAULT_ARM_BUCKETS.writes);
  const readBoundS = tokenBoundSeconds(unavoidableReads, DEFAULT_ARM_BUCKETS.reads);
  const boundS = Math.max(writeBoundS, readBoundS);
  // Operations that last as long as Azure's put the operations' durations, not the buckets, in charge: room for them.
  const deadlineMs = 3 * boundS * 1000 + (timings === 'fast' ? 600_000 : 4 * 3_600_000);

  // 2. the bystander's change, once the cold start is half-way through its writes
  const bystanderChange = async () => {
    const atChange = { programmed: programmedCount(agent), writes: (await counted()).writes };
    const firstWrite = await firstWriteTo(armId(SCOPE, bystanderProfile), deadlineMs);
    const sent = performance.now();
    await applyObject(hub.client, routePath(BYSTANDER), routeBody(BYSTANDER, BYSTANDER, [{ path: '/moved', backends: [{ name: 'svc-0' }] }]));
    return { ...atChange, sent, wrote: await firstWrite() };
  };
  let bystander: ReturnType<typeof bystanderChange> | undefined;
  let reportedAt = started;
  const allProgrammed = await until(
    `${fleet.gateways} Gateways Programmed`,
    async () => {
      const programmed = programmedCount(agent);
      const { writes } = await counted();
      if (!bystander && writes >= planned.total / 2) {
        bystander = bystanderChange();
        // Awaited once the cold start ends; until then a failure must not go unhandled.
        bystander.catch(() => undefined);
      }
      if (performance.now() - reportedAt > 30_000) {
        reportedAt = performance.now();
        console.error(`  ${programmed} of ${fleet.gateways} Programmed after ${seconds(reportedAt - started)}, ${writes} writes`);
      }
      return programmed === fleet.gateways;
    },
    deadlineMs,
    50,
  );
  const elapsedMs = allProgrammed - started;
  const atProgrammed = await counted();
  const bystanderResult = await (bystander ?? bystanderChange());
  await quiet(5_000);
  const settledEntries = await admin.requestCounts();
  const settled = totals(settledEntries);
  const reported = reportedRequests(hub.logs.lines.slice(lineMark));
  const stats = limiter.stats();

  console.log(
    `hub agent, emulator in its own process with ARM throttling (${bucket(armBucketsShare(1).writes)} writes, ${bucket(armBucketsShare(1).reads)} reads) (node ${process.version}, ${availableParallelism()} cores)`,
  );
  console.log(
    `operation timings: ${timings === 'fast' ? "fast (the emulator's default: every operation ends after 100 ms)" : `azure (Front Door's durations per resource kind and create/update/delete, with jitter; seed ${seed ?? "the emulator's default"})`}`,
  );
  console.log(`limiter share (DEFAULT_ARM_BUCKETS): writes ${bucket(DEFAULT_ARM_BUCKETS.writes)}, reads ${bucket(DEFAULT_ARM_BUCKETS.reads)}`);
  console.log(
    `cold start: ${fleet.gateways} Gateways x ${fleet.routesPerGateway} HTTPRoutes x ${CLUSTERS.length} clusters, ${planned.total} planned resources (${[...planned.byKind].map(([k, n]) => `${n} ${k}`).join(', ')})`,
  );
  console.log(`  all Programmed after ${seconds(elapsedMs)} (load average, 1 min: ${loadAtStart} at the start, ${loadAverage()} at the end)`);
  console.log(
    `  lower bound: writes ${seconds(writeBoundS * 1000)} (one per planned resource), reads ${seconds(readBoundS * 1000)} (${unavoidableReads} unavoidable: one observe per Gateway, one operation status per write)`,
  );
  console.log(`  ratio to the lower bound: ${boundS > 0 ? (elapsedMs / 1000 / boundS).toFixed(2) : 'none (the requests fit the bursts)'} (target <= 1.2)`);
  console.log(
    `  ARM writes: ${atProgrammed.writes} when all were Programmed, ${settled.writes} 5 s later = ${(settled.writes / planned.total).toFixed(3)} per planned resource (target 1.0); reconciles reported ${reported.writes}`,
  );
  console.log(
    `  ARM reads: ${atProgrammed.reads} when all were Programmed, ${settled.reads} 5 s later = ${(settled.reads / settled.writes).toFixed(2)} per write (target <= 1.5; unavoidable ${(unavoidableReads / planned.total).toFixed(2)}); reconciles reported ${reported.reads} over ${reported.reconciles} reconciles (observe, operation polls, final GETs)`,
  );
  console.log(
    `  429s received: ${settled.throttled} (target 0); limiter: ${stats.requests.writes} writes, ${stats.requests.reads} reads, waited ${seconds(stats.waitedMs)} in total`,
  );
  for (const line of requestsByType(settledEntries)) console.log(`    ${line}`);
  const duringColdStart = bystanderResult.wrote <= allProgrammed;
  console.log(
    `during the cold start, Gateway ${BYSTANDER}'s HTTPRoute changed (${bystanderResult.programmed} of ${fleet.gateways} Programmed, ${bystanderResult.writes} writes) -> its profile's first ARM write: ${seconds(bystanderResult.wrote - bystanderResult.sent)} (target: within a few seconds, not behind the cold start's queue)${duringColdStart ? '' : '; after the cold start had ended'}`,
  );

  // 3. one HTTPRoute change -> first ARM write
  const latencies: number[] = [];
  const waitedBefore = limiter.stats().waitedMs;
  // The agent and this loop share one event loop (the emulator has its own): how late it ran says what the load cost.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  const changesLoadAtStart = loadAverage();
  loopDelay.enable();
  const changesMark = hub.logs.lines.length;
  for (let n = 0; n < changes; n++) {
    const g = n % fleet.gateways;
    const j = n % fleet.routesPerGateway;
    const seen = firstWriteAfter((await counted()).writes, timings === 'fast' ? 30_000 : 300_000);
    const sent = performance.now();
    await applyObject(hub.client, routePath(routeName(g, j)), benchRoute(fleet, g, j, n));
    latencies.push((await seen) - sent);
    // Its long-running operation polled (Retry-After 1 s) and every status written before the next change.
    await quiet(1_500);
  }
  loopDelay.disable();
  const p = (q: number) => `${percentile(latencies, q).toFixed(1)} ms`;
  const loop = (q: number) => `${(loopDelay.percentile(q) / 1e6).toFixed(1)} ms`;
  console.log(
    `one HTTPRoute change -> first ARM write (the emulator's counters read over its admin API, 1 ms apart), ${changes} changes, ${fleet.gateways} programmed Gateways idle in the caches`,
  );
  const reconciles = hub.logs.lines.slice(changesMark).filter((l) => l.controller === 'gateway' && l.message === 'reconciled').length;
  console.log(
    `  p50 ${p(50)}, p90 ${p(90)}, p99 ${p(99)} (target < 250 ms), max ${p(100)}; limiter waited ${seconds(limiter.stats().waitedMs - waitedBefore)} over the changes; ${(reconciles / changes).toFixed(1)} Gateway reconciles per change`,
  );
  console.log(
    `  load average (1 min) ${changesLoadAtStart} at the start, ${loadAverage()} at the end, on ${availableParallelism()} cores; event loop delay of the agent's process p50 ${loop(50)}, p99 ${loop(99)}, max ${loop(100)}`,
  );
} finally {
  await hub.stop();
  await emulator.stop();
}
