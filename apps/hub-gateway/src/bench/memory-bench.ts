/**
 * Resident memory of the hub agent with --enable-afd=false (no Azure access) once its informers hold --gateways
 * Gateways, --routes HTTPRoutes and --exports InternalServiceExports (with the ServiceImports it makes of them) and
 * its controllers have written every status and gone idle. Before measuring it asserts, from the agent's /readyz and
 * /metrics, that the six informers the issue names have listed and synced and that the Gateway controller reports
 * every Gateway. The agent is its bundle under plain node, in its own process (--bundle names another build), after its
 * launch flags (AGENT_NODE_FLAGS; --node-flags gives others, '' for none, to compare).
 *
 *   pnpm nx bench hub-gateway   (or: pnpm nx bundle hub-gateway && pnpm tsx apps/hub-gateway/src/bench/memory-bench.ts [--bundle FILE] [--node-flags '...'] [--gateways 1000] [--routes 5000] [--exports 3000])
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { resourceName } from '@fleet-gateway/controller';
import { residentMiB } from '@fleet-gateway/controller/test-support';
import { internalServiceExports, serviceImports } from '@fleet-gateway/fleet-hub';
import { gatewayClasses, gateways, httpRoutes, referenceGrants } from '@fleet-gateway/gateway-controllers';
import {
  AGENT_BUNDLE,
  applyFleetGateways,
  applyFleetRoutes,
  publishFleetExports,
  readyAgentProcess,
  readyz,
  startHubUnderTest,
  type FleetShape,
} from '@fleet-gateway/gateway-controllers/test-support';

const CLUSTERS = ['member-1', 'member-2', 'member-3'];
const INFORMERS = [gatewayClasses, gateways, httpRoutes, referenceGrants, serviceImports, internalServiceExports].map(resourceName);
/** The agent counts as idle once no reconcile ran for this long with every queue empty. */
const IDLE_MS = 10_000;

const { values } = parseArgs({
  options: {
    bundle: { type: 'string', default: AGENT_BUNDLE },
    'node-flags': { type: 'string', default: AGENT_NODE_FLAGS['hub-gateway'].join(' ') },
    gateways: { type: 'string', default: '1000' },
    routes: { type: 'string', default: '5000' },
    exports: { type: 'string', default: '3000' },
  },
});
const [gatewayCount, routeCount, exportCount] = [values.gateways, values.routes, values.exports].map(Number) as [number, number, number];
if (!(gatewayCount > 0 && routeCount % gatewayCount === 0 && exportCount % CLUSTERS.length === 0)) {
  throw new Error(`--routes must be a multiple of --gateways and --exports of ${CLUSTERS.length}; got ${gatewayCount}, ${routeCount}, ${exportCount}`);
}
const nodeFlags = values['node-flags'].split(' ').filter((flag) => flag !== '');
const fleet: FleetShape = { gateways: gatewayCount, routesPerGateway: routeCount / gatewayCount, services: exportCount / CLUSTERS.length, clusters: CLUSTERS };

/** Prometheus text -> value by `name{labels}`. */
async function scrape(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1] as string, Number(match[2]));
  }
  return samples;
}

const sumOf = (samples: Map<string, number>, name: string) =>
  [...samples].filter(([k]) => k === name || k.startsWith(`${name}{`)).reduce((s, [, v]) => s + v, 0);

/** The agent as this bench runs it, ready (/readyz: all informers synced) within 10 min. */
const readyAgent = (kubeconfigPath: string) => readyAgentProcess({ kubeconfigPath, bundle: values.bundle, nodeFlags }, 600_000);

const hub = await startHubUnderTest({ members: CLUSTERS });
try {
  const kubeconfigPath = hub.plane.cluster('hub').kubeconfigPath;
  // What the agent holds with empty caches (the runtime, its modules and connections), for comparison.
  const empty = await readyAgent(kubeconfigPath);
  await sleep(IDLE_MS);
  const baseline = residentMiB(empty.agent.process.pid);
  await empty.agent.process.stop();

  const written = performance.now();
  await publishFleetExports(hub.client, fleet);
  await applyFleetRoutes(hub.client, fleet);
  await applyFleetGateways(hub.client, fleet);
  const writtenS = (performance.now() - written) / 1000;

  const started = performance.now();
  const { agent, readyS } = await readyAgent(kubeconfigPath);
  try {
    const afterSync = residentMiB(agent.process.pid);

    // Idle: every queue empty, no reconcile for IDLE_MS, and the Gateway controller reporting every Gateway.
    let samples = await scrape(agent.metricsUrl);
    let reconciles = sumOf(samples, 'controller_reconcile_total');
    let since = performance.now();
    while (performance.now() - since < IDLE_MS || sumOf(samples, 'workqueue_depth') > 0 || sumOf(samples, 'fleet_gateway_gateways') < fleet.gateways) {
      if (performance.now() - started > 1_800_000) throw new Error('the agent did not go idle within 30 min');
      await sleep(500);
      samples = await scrape(agent.metricsUrl);
      const now = sumOf(samples, 'controller_reconcile_total');
      if (now !== reconciles || sumOf(samples, 'workqueue_depth') > 0) [reconciles, since] = [now, performance.now()];
    }
    const idleS = (performance.now() - started) / 1000;
    const unlisted = INFORMERS.filter((r) => !((samples.get(`informer_relists_total{resource="${r}"}`) ?? 0) >= 1));
    if (unlisted.length > 0) throw new Error(`informers that never listed: ${unlisted.join(', ')}`);
    const ready = await readyz(agent.readyzUrl);
    if (!ready.ok) throw new Error(`the agent is no longer ready: ${ready.body}`);
    const idle = residentMiB(agent.process.pid);

    console.log(
      `hub agent, --enable-afd=false, the bundle ${path.relative(process.cwd(), values.bundle)} under node ${nodeFlags.join(' ') || '(no flags)'} (node ${process.version})`,
    );
    console.log(
      `  informers: ${fleet.gateways} Gateways, ${fleet.gateways * fleet.routesPerGateway} HTTPRoutes, ${fleet.services * CLUSTERS.length} InternalServiceExports, ${fleet.services} ServiceImports (made by the agent), 1 GatewayClass, 0 ReferenceGrants; written in ${writtenS.toFixed(1)} s`,
    );
    console.log(`  ready (/readyz: all informers synced) after ${readyS.toFixed(1)} s; listed: ${INFORMERS.join(', ')}`);
    console.log(
      `  idle after ${idleS.toFixed(1)} s (${reconciles} reconciles; every status written; ${sumOf(samples, 'fleet_gateway_gateways')} Gateways reported)`,
    );
    console.log(
      `  resident memory: ${afterSync.rss.toFixed(1)} MiB when ready, ${idle.rss.toFixed(1)} MiB idle (target < 300 MiB), peak ${idle.peak.toFixed(1)} MiB`,
    );
    console.log(
      `  the same agent idle with empty caches: ${baseline.rss.toFixed(1)} MiB (so the objects and their work cost +${(idle.rss - baseline.rss).toFixed(1)} MiB)`,
    );
  } finally {
    await agent.process.stop();
  }
} finally {
  await hub.stop();
}
