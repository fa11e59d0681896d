/**
 * The hub agent programming Azure Front Door at scale, against the emulator with ARM's throttling on (ARM's own
 * buckets) and the agent's default limiter (half of them, DEFAULT_ARM_BUCKETS) and the emulator's default
 * long-running-operation timing (hub-under-test's fast retries never act: the figures show no 429 and no failure):
 * 1. cold start: --gateways Gateways × 5 HTTPRoutes × 3 clusters (public origins; the exports written first, as the
 *    members would, and their ServiceImports resolved) created at once: time until all are Programmed, against the
 *    least time the limiter's two buckets allow for one write per planned resource and for the reads the reconciles
 *    reported; writes per planned resource and 429s from the emulator's counters.
 * 2. one HTTPRoute change -> the first ARM write the emulator counts, over --changes changes (one Gateway each,
 *    in turn), with the programmed Gateways idle in the caches.
 *
 *   pnpm nx bench gateway-controllers   (or: pnpm tsx libs/gateway-controllers/src/bench/programming-bench.ts [--gateways 100] [--changes 60])
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { EmulatorAdmin, RunningEmulator } from '@fleet-gateway/azure-emulator';
import { allRefs, planFrontDoor } from '@fleet-gateway/azure-frontdoor';
import { armBucketsShare, DEFAULT_ARM_BUCKETS } from '@fleet-gateway/arm-runtime';
import { readsCounted, writesCounted } from '@fleet-gateway/azure-frontdoor/test-support';
import { percentile } from '@fleet-gateway/controller/test-support';
import { resolveGateway } from '@fleet-gateway/model';
import { collectHubInputs } from '../gateway-inputs.js';
import {
  APP_NAMESPACE,
  applyObject,
  conditionOf,
  DEFAULT_SKU,
  HUB_IDENTITY,
  routePath,
  startHubUnderTest,
  type RunningAgent,
} from '../test-support/hub-under-test.js';
import { applyFleetGateways, applyFleetRoutes, benchRoute, gatewayName, publishFleetExports, routeName, type FleetShape } from '../test-support/bench-fleet.js';
import { tokenBoundSeconds } from './token-bound.js';

/** The emulator's default: a write's operation ends 100 ms after it started; ARM's Retry-After of 1 s on its polls. */
const LRO_DELAY_MS = 100;
/** As the agent runs by default (libs/azure-frontdoor's pendingRequeueMs). */
const PENDING_REQUEUE_MS = 15_000;
const CLUSTERS = ['member-1', 'member-2', 'member-3'];

function positiveInteger(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer; got '${value}'`);
  return n;
}

const { values } = parseArgs({ options: { gateways: { type: 'string', default: '100' }, changes: { type: 'string', default: '60' } } });
const gateways = positiveInteger('--gateways', values.gateways);
const fleet: FleetShape = { gateways, routesPerGateway: 5, services: gateways * 5, clusters: CLUSTERS };
const changes = positiveInteger('--changes', values.changes);

async function until(what: string, done: () => boolean, timeoutMs: number, everyMs = 100): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(everyMs);
  }
  return performance.now();
}

/** Waits until the emulator has counted no request for `quietMs`. */
async function quiet(emulator: RunningEmulator, quietMs: number): Promise<void> {
  let last = emulator.admin.requestTotal();
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    await sleep(50);
    const now = emulator.admin.requestTotal();
    if (now !== last) [last, since] = [now, performance.now()];
  }
}

/** When the emulator's write count first exceeds `baseline` (its counters, read every millisecond). */
async function firstWriteAfter(emulator: RunningEmulator, baseline: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (writesCounted(emulator) <= baseline) {
    if (performance.now() > deadline) throw new Error(`no ARM write within ${timeoutMs} ms of a route change`);
    await sleep(1);
  }
  return performance.now();
}

function programmedCount(agent: RunningAgent): number {
  let programmed = 0;
  for (let g = 0; g < fleet.gateways; g++) {
    const gateway = agent.stores.gateways.getByName(gatewayName(g), APP_NAMESPACE);
    const condition = conditionOf(gateway, 'Programmed');
    const attached = gateway?.status?.listeners?.[0]?.attachedRoutes ?? 0;
    if (condition?.status === 'True' && condition.observedGeneration === gateway?.metadata.generation && attached === fleet.routesPerGateway) programmed++;
  }
  return programmed;
}

/** Resources the plan of every Gateway has, as the agent resolves it from its caches now; by kind too. */
function plannedResources(agent: RunningAgent): { total: number; byKind: Map<string, number> } {
  const byKind = new Map<string, number>();
  let total = 0;
  for (const gateway of agent.stores.gateways.list()) {
    const model = resolveGateway(collectHubInputs(agent.stores, gateway, DEFAULT_SKU)).model;
    if (!model) throw new Error(`Gateway ${gateway.metadata.name} does not resolve to a model`);
    for (const ref of allRefs(planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph)) {
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

const requestsByType = (admin: EmulatorAdmin) =>
  admin
    .requestCounts()
    .map((e) => `${e.method} ${e.resourceType.replace('Microsoft.Cdn/profiles', 'profiles')} ${e.status}: ${e.count}`)
    .sort();

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const bucket = (b: { burst: number; refillPerSecond: number }) => `${b.burst} burst + ${b.refillPerSecond}/s`;

// `{}`: the agent's default buckets, DEFAULT_ARM_BUCKETS.
const hub = await startHubUnderTest({ members: CLUSTERS, limiter: {}, emulator: { lroDelayMs: LRO_DELAY_MS } });
const { limiter } = hub;
try {
  const { admin } = hub.emulator;
  const agent = await hub.startAgent({ pendingRequeueMs: PENDING_REQUEUE_MS });
  await publishFleetExports(hub.client, fleet);
  await until(
    `${fleet.services} ServiceImports listing ${CLUSTERS.length} clusters`,
    () => agent.stores.serviceImports.list().filter((si) => si.status?.clusters?.length === CLUSTERS.length).length === fleet.services,
    600_000,
  );
  await applyFleetRoutes(hub.client, fleet);
  admin.resetCounters();
  const lineMark = hub.logs.lines.length;

  // 1. cold start
  const started = performance.now();
  await applyFleetGateways(hub.client, fleet);
  await until(`the agent's cache holding ${fleet.gateways} Gateways`, () => agent.stores.gateways.size === fleet.gateways, 60_000, 10);
  const planned = plannedResources(agent);
  const writeBoundS = tokenBoundSeconds(planned.total, DEFAULT_ARM_BUCKETS.writes);
  let reportedAt = started;
  const allProgrammed = await until(
    `${fleet.gateways} Gateways Programmed`,
    () => {
      const programmed = programmedCount(agent);
      if (performance.now() - reportedAt > 30_000) {
        reportedAt = performance.now();
        console.error(`  ${programmed} of ${fleet.gateways} Programmed after ${seconds(reportedAt - started)}, ${writesCounted(hub.emulator)} writes`);
      }
      return programmed === fleet.gateways;
    },
    3 * writeBoundS * 1000 + 600_000,
    50,
  );
  const elapsedMs = allProgrammed - started;
  const counted = () => ({ writes: writesCounted(hub.emulator), throttled: admin.requestTotal({ status: 429 }), reads: readsCounted(hub.emulator) });
  const atProgrammed = counted();
  await quiet(hub.emulator, 5_000);
  const settled = counted();
  const reported = reportedRequests(hub.logs.lines.slice(lineMark));
  const readBoundS = tokenBoundSeconds(reported.reads, DEFAULT_ARM_BUCKETS.reads);
  const boundS = Math.max(writeBoundS, readBoundS);
  const stats = limiter.stats();

  console.log(
    `hub agent, emulator with ARM throttling (${bucket(armBucketsShare(1).writes)} writes, ${bucket(armBucketsShare(1).reads)} reads) (node ${process.version})`,
  );
  console.log(`limiter share (DEFAULT_ARM_BUCKETS): writes ${bucket(DEFAULT_ARM_BUCKETS.writes)}, reads ${bucket(DEFAULT_ARM_BUCKETS.reads)}`);
  console.log(
    `cold start: ${fleet.gateways} Gateways x ${fleet.routesPerGateway} HTTPRoutes x ${CLUSTERS.length} clusters, ${planned.total} planned resources (${[...planned.byKind].map(([k, n]) => `${n} ${k}`).join(', ')})`,
  );
  console.log(
    `  all Programmed after ${seconds(elapsedMs)} (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    `  lower bound: writes ${seconds(writeBoundS * 1000)} (one per planned resource), reads ${seconds(readBoundS * 1000)} (${reported.reads} the ${reported.reconciles} reconciles reported: observe, LRO polls, final GETs)`,
  );
  console.log(
    `  ratio to the lower bound: ${(elapsedMs / 1000 / boundS).toFixed(2)} (target <= 1.2); to the write bound alone: ${writeBoundS > 0 ? (elapsedMs / 1000 / writeBoundS).toFixed(2) : 'none (the writes fit the burst)'}`,
  );
  console.log(
    `  ARM writes: ${atProgrammed.writes} when all were Programmed, ${settled.writes} 5 s later = ${(settled.writes / planned.total).toFixed(3)} per planned resource (target 1.0); reconciles reported ${reported.writes}`,
  );
  console.log(
    `  ARM reads: ${atProgrammed.reads} when all were Programmed, ${settled.reads} 5 s later (${(settled.reads / settled.writes).toFixed(2)} per write)`,
  );
  console.log(
    `  429s received: ${settled.throttled} (target 0); limiter: ${stats.requests.writes} writes, ${stats.requests.reads} reads, waited ${seconds(stats.waitedMs)} in total`,
  );
  for (const line of requestsByType(admin)) console.log(`    ${line}`);

  // 2. one HTTPRoute change -> first ARM write
  const latencies: number[] = [];
  const waitedBefore = limiter.stats().waitedMs;
  // The agent, the emulator and this loop share one event loop: how late it ran says what the machine's load cost.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const changesMark = hub.logs.lines.length;
  for (let n = 0; n < changes; n++) {
    const g = n % fleet.gateways;
    const j = n % fleet.routesPerGateway;
    const seen = firstWriteAfter(hub.emulator, writesCounted(hub.emulator), 30_000);
    const sent = performance.now();
    await applyObject(hub.client, routePath(routeName(g, j)), benchRoute(fleet, g, j, n));
    latencies.push((await seen) - sent);
    // Its long-running operation polled (Retry-After 1 s) and every status written before the next change.
    await quiet(hub.emulator, 1_500);
  }
  loopDelay.disable();
  const p = (q: number) => `${percentile(latencies, q).toFixed(1)} ms`;
  const loop = (q: number) => `${(loopDelay.percentile(q) / 1e6).toFixed(1)} ms`;
  console.log(
    `one HTTPRoute change -> first ARM write (emulator's counters read every 1 ms), ${changes} changes, ${fleet.gateways} programmed Gateways idle in the caches`,
  );
  const reconciles = hub.logs.lines.slice(changesMark).filter((l) => l.controller === 'gateway' && l.message === 'reconciled').length;
  console.log(
    `  p50 ${p(50)}, p90 ${p(90)}, p99 ${p(99)} (target < 250 ms), max ${p(100)}; limiter waited ${seconds(limiter.stats().waitedMs - waitedBefore)} over the changes; ${(reconciles / changes).toFixed(1)} Gateway reconciles per change`,
  );
  console.log(
    `  event loop delay of the agent's process p50 ${loop(50)}, p99 ${loop(99)}, max ${loop(100)}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
} finally {
  await hub.stop();
}
