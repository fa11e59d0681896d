import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linesWithStackTraces, originNames, profileOf, programmedOf, whenImported, whenProgrammed } from './test-support/hub-probes.js';
import {
  applyGatewayWithRoute,
  applyObject,
  conditionOf,
  publishExport,
  readRoute,
  routeBody,
  routePath,
  startHubWithAgent,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';

// The hub's API server restarts under a running agent (same port, certificates and data): its watches reconnect
// and what is changed afterwards is programmed, with no stack trace for what is a transient condition.
let hub: HubUnderTest;
let agent: RunningAgent;

beforeAll(async () => void ({ hub, agent } = await startHubWithAgent()), 120_000);
afterAll(() => hub?.stop());

describe('the hub API server restarted', { timeout: 60_000 }, () => {
  it('the agent recovers: a route added and a Gateway created after the restart are programmed', async () => {
    await publishExport(hub.client, { cluster: 'member-1', service: 'web', publicAddress: '10.2.0.1' });
    await whenImported(hub, 'web', ['member-1']);
    await applyGatewayWithRoute(hub.client, 'survivor', { backend: 'web' });
    await whenProgrammed(hub, 'survivor', ['survivor']);
    const profile = await profileOf(hub, 'survivor');
    expect(await originNames(hub, profile)).toEqual([expect.stringMatching(/^og-web-[0-9a-f]{12}\/o-member-1-/)]);

    const linesBefore = hub.logs.lines.length;
    await hub.plane.cluster('hub').restartApiServer();

    // Changes made after the restart: a new export and route on the running Gateway, and a new Gateway.
    await publishExport(hub.client, { cluster: 'member-2', service: 'api', publicAddress: '10.2.0.2' });
    await applyObject(hub.client, routePath('api'), routeBody('api', 'survivor', [{ path: '/api', backends: [{ name: 'api' }] }]));
    await applyGatewayWithRoute(hub.client, 'newcomer', { backend: 'web' });

    const api = await eventually(
      () => readRoute(hub.client, 'api'),
      (r) => conditionOf(r.status?.parents?.[0], 'ResolvedRefs')?.status === 'True',
      40_000,
    );
    expect(conditionOf(api.status?.parents?.[0], 'Accepted')?.status).toBe('True');
    expect(
      await eventually(
        () => originNames(hub, profile),
        (names) => names.length === 2,
        30_000,
      ),
    ).toHaveLength(2);
    const survivor = await whenProgrammed(hub, 'survivor', ['survivor', 'api']);
    expect(survivor.status?.listeners?.[0]?.attachedRoutes).toBe(2);
    await whenProgrammed(hub, 'newcomer', ['newcomer']);
    expect(await programmedOf(hub, 'newcomer')).toMatchObject({ status: 'True', reason: 'Programmed', observedGeneration: 1 });
    expect(await originNames(hub, await profileOf(hub, 'newcomer'))).toHaveLength(1);

    // The restart did cut the agent's watches (they ended and were opened again), and it kept running.
    expect(hub.logs.lines.slice(linesBefore).filter((l) => l.message === 'informer watch-ended').length).toBeGreaterThan(0);
    expect(agent.manager.isRunningControllers).toBe(true);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
    expect(hub.logs.lines.filter((l) => l.message === 'reconcile threw; retrying with backoff')).toEqual([]);
  });
  it('a reconcile in flight when the API server goes away is retried without a stack trace and converges once it is back', async () => {
    await publishExport(hub.client, { cluster: 'member-1', service: 'midflight', publicAddress: '10.2.0.3' });
    await whenImported(hub, 'midflight', ['member-1']);
    // The profile write takes a while: the API server is gone by the time the reconcile writes status.
    hub.emulator.admin.injectFault({ kind: 'latency', method: 'PUT', pathPattern: '/profiles/fgw-shop-midflight-[0-9a-f]{12}$', latencyMs: 3_000 });
    const linesBefore = hub.logs.lines.length;
    await applyGatewayWithRoute(hub.client, 'midflight');
    const ofMidflight = () => hub.logs.lines.slice(linesBefore).filter((l) => l.controller === 'gateway' && l.name === 'midflight');
    await eventually(ofMidflight, (lines) => lines.some((l) => l.message === 'added the finalizer before the first Azure write'), 20_000);

    const apiServer = hub.plane.cluster('hub');
    await apiServer.stopApiServer();
    const retried = (lines: Record<string, unknown>[]) => lines.filter((l) => l.message === 'a Kubernetes API request failed; retrying');
    const failed = await eventually(ofMidflight, (lines) => retried(lines).length > 0, 20_000);
    await apiServer.startApiServer();
    expect(retried(failed)[0]).toMatchObject({ level: 'info', status: 'ECONNREFUSED' });

    await whenProgrammed(hub, 'midflight', ['midflight']);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
    expect(hub.logs.lines.filter((l) => l.message === 'reconcile threw; retrying with backoff')).toEqual([]);
  });
});
