import { originsOf } from '@fleet-gateway/azure-frontdoor/test-support';
import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armReads, armWrites, profileOf, settled, whenImported, whenProgrammed } from './test-support/hub-probes.js';
import {
  applyObject,
  gatewayBody,
  gatewayPath,
  publishExport,
  readGateway,
  readRoute,
  routeBody,
  routePath,
  SCOPE,
  startHubWithAgent,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';

// Drift made in Azure outside the hub (an origin deleted, a route's patterns rewritten) is found by the drift check the
// Gateway is requeued for, and corrected, with no Kubernetes event: the informer's resync is off here, so only the
// requeue can bring the Gateway back. Before the period the hub reads nothing of Azure.
const DRIFT_CHECK_MS = 15_000;
let hub: HubUnderTest;
let agent: RunningAgent;

beforeAll(async () => {
  ({ hub, agent } = await startHubWithAgent({ agent: { driftCheckMs: DRIFT_CHECK_MS, resyncPeriodMs: 0 } }));
}, 120_000);
afterAll(async () => {
  await hub?.stop();
});

const ROUTE_TYPE = 'microsoft.cdn/profiles/afdendpoints/routes';
/** The routes the emulator holds (its state, not an ARM read, so the hub's reads alone are counted). */
const heldRoutes = () =>
  hub.emulator.admin
    .dumpResources()
    .resources.filter((r) => r.type === ROUTE_TYPE)
    .map((r) => ({ id: r.id, patternsToMatch: (r.body as { properties: { patternsToMatch: string[] } }).properties.patternsToMatch }));
const heldOrigins = () => originsOf(hub.emulator.admin.dumpResources().resources).map((o) => `${o.group}/${o.name}`);
const gatewayLines = (message: string) => hub.logs.lines.filter((l) => l.controller === 'gateway' && l.name === 'drift' && l.message === message);
const at = (line: Record<string, unknown> | undefined) => Date.parse(String(line?.timestamp));

describe('drift made in Azure outside the hub', { timeout: 120_000 }, () => {
  it('is read again only when the drift period has passed, then a deleted origin and a rewritten route are restored', async () => {
    await publishExport(hub.client, { cluster: 'member-1', service: 'web', publicAddress: '10.6.1.1' });
    await publishExport(hub.client, { cluster: 'member-2', service: 'web', publicAddress: '10.6.2.1' });
    await whenImported(hub, 'web', ['member-1', 'member-2']);
    await applyObject(hub.client, gatewayPath('drift'), gatewayBody('drift'));
    await applyObject(hub.client, routePath('web'), routeBody('web', 'drift', [{ path: '/web', backends: [{ name: 'web' }] }]));
    await whenProgrammed(hub, 'drift', ['web']);
    const programmedOrigins = await eventually(heldOrigins, (o) => o.length === 2, 30_000);
    await eventually(
      () => settled(hub, agent, 'drift'),
      (s) => s,
      30_000,
    );
    const [gatewayGeneration, routeGeneration] = [
      (await readGateway(hub.client, 'drift')).metadata.generation,
      (await readRoute(hub.client, 'web')).metadata.generation,
    ];
    const programmedRoutes = heldRoutes();
    expect(programmedRoutes).toHaveLength(1);
    const programming = gatewayLines('observed Azure').at(-1);
    // The programming reconcile asked to come back for the drift check, after the period plus at most 10 % jitter.
    const requeued = gatewayLines('requeued').filter((l) => l.reason === 'drift check: Azure is read again');
    expect(requeued.length).toBeGreaterThan(0);
    expect(Number(requeued.at(-1)?.afterMs)).toBeLessThanOrEqual(DRIFT_CHECK_MS * 1.1);

    // Out of band, through ARM: one origin deleted, the route's patterns rewritten.
    const profile = await profileOf(hub, 'drift');
    const [group = '', origin = ''] = (programmedOrigins[0] ?? '').split('/');
    const [routeId = ''] = programmedRoutes.map((r) => r.id);
    const [endpoint = '', , route = ''] = routeId.split('/').slice(-3);
    await hub.clients.cdn.afdOrigins.beginDeleteAndWait(SCOPE.resourceGroup, profile, group, origin);
    await hub.clients.cdn.routes.beginUpdateAndWait(SCOPE.resourceGroup, profile, endpoint, route, { patternsToMatch: ['/elsewhere/*'] });
    expect(heldOrigins()).toEqual(programmedOrigins.filter((o) => o !== `${group}/${origin}`));
    expect(heldRoutes()[0]?.patternsToMatch).toEqual(['/elsewhere/*']);
    const looked = gatewayLines('observed Azure').length;
    const [reads, writes] = [armReads(hub), armWrites(hub)];

    // Repaired by the hub alone: no Kubernetes write here, no resync.
    const repaired = await eventually(
      () => ({ origins: heldOrigins(), routes: heldRoutes() }),
      (s) => s.origins.length === 2 && s.routes[0]?.patternsToMatch.join() === programmedRoutes[0]?.patternsToMatch.join(),
      60_000,
    );
    expect(repaired.routes.map((r) => r.patternsToMatch)).toEqual(programmedRoutes.map((r) => r.patternsToMatch));
    await eventually(
      () => settled(hub, agent, 'drift'),
      (s) => s,
      30_000,
    );
    const checks = gatewayLines('observed Azure').slice(looked);
    expect(checks.length).toBeGreaterThan(0);
    // Nothing was read before the period: the first look at Azure since programming came a full period after it, and
    // every read since the drift was made is one those reconciles counted.
    expect(at(checks[0]) - at(programming)).toBeGreaterThanOrEqual(DRIFT_CHECK_MS);
    expect(armReads(hub) - reads).toBe(checks.reduce((sum, l) => sum + Number(l.reads), 0));
    // The origin recreated and the route rewritten back: two writes.
    expect(armWrites(hub) - writes).toBe(checks.reduce((sum, l) => sum + Number(l.writes), 0));
    expect(checks.reduce((sum, l) => sum + Number(l.writes), 0)).toBe(2);
    expect((await readGateway(hub.client, 'drift')).metadata.generation).toBe(gatewayGeneration);
    expect((await readRoute(hub.client, 'web')).metadata.generation).toBe(routeGeneration);
  });
});
