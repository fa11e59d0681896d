import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { edgeRequest, originSplit, startBackend, type Backend } from '../testing/backends.js';
import { createInternalLoadBalancer, createPrivateLinkService } from '../testing/network-fixtures.js';
import { FAST_POLLING, RESOURCE_GROUP, networkId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
const DELAYS = [0, 80, 200];
let bed: TestBed;
let a: Backend;
let b: Backend;

beforeAll(async () => {
  bed = await startTestBed({ edge: { propagationDelaysMs: DELAYS, probeIntervalScale: 0.01 } });
  a = await startBackend('a');
  b = await startBackend('b');
  await createProfile(bed, 'fd');
});
afterAll(async () => {
  await bed.emulator.stop();
  await a.close();
  await b.close();
});

async function statusesAtEachEdge(host: string, path = '/'): Promise<number[]> {
  return Promise.all(DELAYS.map((_, edge) => edgeRequest(bed.emulator.edgeUrl, host, path, { edge }).then((r) => r.status)));
}

describe('propagation across simulated edges', () => {
  it('a new route is visible at the fastest edge before the slowest', async () => {
    const host = await createEndpoint(bed, 'fd', 'prop');
    await createOriginGroup(bed, 'fd', 'og');
    await createOrigin(bed, 'fd', 'og', { name: 'a', hostName: '127.0.0.1', httpPort: a.port });
    await bed.emulator.admin.whenPropagated();
    expect(await statusesAtEachEdge(host)).toEqual([404, 404, 404]);
    await createRoute(bed, 'fd', 'prop', 'r', 'og');
    // The operation has ended and the change is published: edge 0 (no delay) serves it, edge 2 (200 ms) not yet.
    const first = await statusesAtEachEdge(host);
    expect(first[0]).toBe(200);
    expect(first[2]).toBe(404);
    await bed.emulator.admin.whenPropagated();
    expect(await statusesAtEachEdge(host)).toEqual([200, 200, 200]);
  });

  it('withdrawing a route reaches every edge only after the longest delay', async () => {
    const host = (await bed.cdn.afdEndpoints.get(RG, 'fd', 'prop')).hostName as string;
    const started = performance.now();
    await bed.cdn.routes.beginDeleteAndWait(RG, 'fd', 'prop', 'r', FAST_POLLING);
    const during = await statusesAtEachEdge(host);
    expect(during[0]).toBe(404);
    expect(during[2]).toBe(200);
    await bed.emulator.admin.whenPropagated();
    expect(performance.now() - started).toBeGreaterThanOrEqual(Math.max(...DELAYS));
    expect(await statusesAtEachEdge(host)).toEqual([404, 404, 404]);
    const status = bed.emulator.admin.edgeStatus();
    expect(new Set(status.edges.map((edge) => edge.version))).toEqual(new Set([status.latestVersion]));
  });
});

describe('health probes', () => {
  it('moves traffic off an origin whose probe fails, and uses all origins when all fail', async () => {
    const host = await createEndpoint(bed, 'fd', 'health');
    await createOriginGroup(bed, 'fd', 'og-health', '/healthz');
    await createOrigin(bed, 'fd', 'og-health', { name: 'a', hostName: '127.0.0.1', httpPort: a.port });
    await createOrigin(bed, 'fd', 'og-health', { name: 'b', hostName: '127.0.0.1', httpPort: b.port });
    await createRoute(bed, 'fd', 'health', 'r', 'og-health');
    await bed.emulator.admin.whenPropagated();
    a.probeStatus = 500;
    // Probes run every 10 ms (1 s × 0.01); two failures out of four samples make an origin unhealthy.
    const deadline = Date.now() + 5_000;
    let split = new Map<string, number>();
    while (Date.now() < deadline) {
      split = await originSplit(bed.emulator.edgeUrl, host, '/', 40, 4);
      if (split.get('a') === undefined) break;
    }
    expect(split.get('b')).toBe(40);
    b.probeStatus = 503;
    let bothUnhealthy = new Map<string, number>();
    while (Date.now() < deadline) {
      bothUnhealthy = await originSplit(bed.emulator.edgeUrl, host, '/', 60, 4);
      if ((bothUnhealthy.get('a') ?? 0) > 0 && (bothUnhealthy.get('b') ?? 0) > 0) break;
    }
    expect(bothUnhealthy.get('a')).toBeGreaterThan(0);
    expect(bothUnhealthy.get('b')).toBeGreaterThan(0);
    a.probeStatus = 200;
    b.probeStatus = 200;
  });
});

describe('Private Link gating', () => {
  it('an origin carries no traffic until its connection is Approved, and stops when it is Rejected', async () => {
    const lb = await createInternalLoadBalancer(bed, 'kubernetes-internal', ['fe-app']);
    const address = lb.frontendIPConfigurations?.[0]?.privateIPAddress as string;
    bed.emulator.admin.mapAddress(address, 80, { host: '127.0.0.1', port: a.port });
    await createPrivateLinkService(bed, 'pls-app', 'kubernetes-internal', 'fe-app');
    const host = await createEndpoint(bed, 'fd', 'private');
    await createOriginGroup(bed, 'fd', 'og-private');
    await createOrigin(bed, 'fd', 'og-private', {
      name: 'member-1',
      hostName: address,
      extra: { sharedPrivateLinkResource: { privateLink: { id: networkId('privateLinkServices', 'pls-app') }, privateLinkLocation: 'eastus', requestMessage: 'req-1' } },
    });
    await createRoute(bed, 'fd', 'private', 'r', 'og-private');
    await bed.emulator.admin.whenPropagated();
    expect(await statusesAtEachEdge(host)).toEqual([503, 503, 503]);

    const connection = (await bed.network.privateLinkServices.get(RG, 'pls-app')).privateEndpointConnections?.[0];
    await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-app', connection?.name as string, {
      privateLinkServiceConnectionState: { status: 'Approved', description: 'ok' },
    });
    await bed.emulator.admin.whenPropagated();
    const served = await edgeRequest(bed.emulator.edgeUrl, host, '/through-pl');
    expect(served.status).toBe(200);
    expect(a.requests.at(-1)?.path).toBe('/through-pl');

    await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-app', connection?.name as string, {
      privateLinkServiceConnectionState: { status: 'Rejected' },
    });
    await bed.emulator.admin.whenPropagated();
    expect(await statusesAtEachEdge(host)).toEqual([503, 503, 503]);
  });
});
