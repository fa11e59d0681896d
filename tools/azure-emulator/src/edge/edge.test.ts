import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { restErrorOf } from '../testing/errors.js';
import { edgeRequest, originSplit, startBackend, type Backend } from '../testing/backends.js';
import { createInternalLoadBalancer, createPrivateLinkService } from '../testing/network-fixtures.js';
import { FAST_POLLING, RESOURCE_GROUP, cdnId, networkId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
let bed: TestBed;
let backends: Record<'a' | 'b' | 'c', Backend>;

beforeAll(async () => {
  bed = await startTestBed({ edge: { propagationDelaysMs: [0, 0, 0], probeIntervalScale: 0.01 } });
  backends = { a: await startBackend('a'), b: await startBackend('b'), c: await startBackend('c') };
  await createProfile(bed, 'fd');
});
afterAll(async () => {
  await bed.emulator.stop();
  await Promise.all(Object.values(backends).map((backend) => backend.close()));
});

async function endpointWithGroup(
  endpoint: string,
  group: string,
  origins: Array<{ name: string; backend: Backend; weight?: number; priority?: number; hostName?: string }>,
) {
  const host = await createEndpoint(bed, 'fd', endpoint);
  await createOriginGroup(bed, 'fd', group);
  for (const origin of origins) {
    await createOrigin(bed, 'fd', group, {
      name: origin.name,
      hostName: origin.hostName ?? '127.0.0.1',
      httpPort: origin.backend.port,
      weight: origin.weight,
      priority: origin.priority,
    });
  }
  await createRoute(bed, 'fd', endpoint, 'default', group);
  await bed.emulator.admin.whenPropagated();
  return host;
}

describe('edge routing', () => {
  it('answers 404 with an AFD-like body and x-azure-ref for an unknown host', async () => {
    const response = await edgeRequest(bed.emulator.edgeUrl, 'nobody.z01.azurefd.net', '/');
    expect(response.status).toBe(404);
    expect(response.headers['x-azure-ref']).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{16}$/);
    expect(response.body).toContain(String(response.headers['x-azure-ref']));
  });

  it('forwards by host and path with the origin host header and forwarding headers', async () => {
    const host = await createEndpoint(bed, 'fd', 'paths');
    await createOriginGroup(bed, 'fd', 'og-root');
    await createOriginGroup(bed, 'fd', 'og-api');
    await createOriginGroup(bed, 'fd', 'og-exact');
    await createOrigin(bed, 'fd', 'og-root', { name: 'root', hostName: '127.0.0.1', httpPort: backends.a.port, extra: { originHostHeader: 'app.internal' } });
    await createOrigin(bed, 'fd', 'og-api', { name: 'api', hostName: '127.0.0.1', httpPort: backends.b.port });
    await createOrigin(bed, 'fd', 'og-exact', { name: 'exact', hostName: '127.0.0.1', httpPort: backends.c.port });
    await createRoute(bed, 'fd', 'paths', 'root', 'og-root', { patternsToMatch: ['/*'] });
    await createRoute(bed, 'fd', 'paths', 'api', 'og-api', { patternsToMatch: ['/api/*'], originPath: '/v2' });
    await createRoute(bed, 'fd', 'paths', 'exact', 'og-exact', { patternsToMatch: ['/api/status'] });
    await bed.emulator.admin.whenPropagated();

    const root = await edgeRequest(bed.emulator.edgeUrl, host, '/index.html?x=1');
    expect(root.headers['x-emulator-origin']).toBe('root');
    const seen = backends.a.requests.at(-1);
    expect(seen?.headers.host).toBe('app.internal');
    expect(seen?.headers['x-forwarded-host']).toBe(host);
    expect(seen?.headers['x-azure-ref']).toBe(root.headers['x-azure-ref']);
    expect(seen?.path).toBe('/index.html?x=1');

    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/API/users')).headers['x-emulator-origin']).toBe('api');
    // originPath takes the place of the pattern's fixed part (/api), it does not precede the path (origin-path.ts).
    expect(backends.b.requests.at(-1)?.path).toBe('/v2/users');
    expect(backends.b.requests.at(-1)?.headers.host).toBe(host);
    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/api/status')).headers['x-emulator-origin']).toBe('exact');
    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/api')).headers['x-emulator-origin']).toBe('root');
  });

  it('originPath replaces the part of the path the pattern fixes: the prefix on /v1/*, the whole path on /v1, nothing on /*', async () => {
    const host = await createEndpoint(bed, 'fd', 'originpath');
    await createOriginGroup(bed, 'fd', 'og-op-root');
    await createOriginGroup(bed, 'fd', 'og-op-v1');
    await createOrigin(bed, 'fd', 'og-op-root', { name: 'op-root', hostName: '127.0.0.1', httpPort: backends.a.port });
    await createOrigin(bed, 'fd', 'og-op-v1', { name: 'op-v1', hostName: '127.0.0.1', httpPort: backends.b.port });
    await createRoute(bed, 'fd', 'originpath', 'root', 'og-op-root', { patternsToMatch: ['/*'], originPath: '/base/' });
    await createRoute(bed, 'fd', 'originpath', 'v1', 'og-op-v1', { patternsToMatch: ['/v1', '/v1/*'], originPath: '/v2' });
    await bed.emulator.admin.whenPropagated();
    const seen = async (path: string): Promise<[unknown, string | undefined]> => {
      const origin = (await edgeRequest(bed.emulator.edgeUrl, host, path)).headers['x-emulator-origin'];
      return [origin, (origin === 'op-v1' ? backends.b : backends.a).requests.at(-1)?.path];
    };
    expect(await seen('/v1')).toEqual(['op-v1', '/v2']);
    expect(await seen('/v1/x?q=1')).toEqual(['op-v1', '/v2/x?q=1']);
    expect(await seen('/v1/')).toEqual(['op-v1', '/v2/']);
    expect(await seen('/v1x')).toEqual(['op-root', '/base/v1x']);
    expect(await seen('/')).toEqual(['op-root', '/base/']);
  });

  it('answers 404 on a known host when no route pattern matches the path', async () => {
    const host = await endpointWithGroup('narrow', 'og-narrow', [{ name: 'only', backend: backends.a }]);
    await bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'narrow', 'default', { patternsToMatch: ['/app/*'] }, FAST_POLLING);
    await bed.emulator.admin.whenPropagated();
    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/app/x')).status).toBe(200);
    const missed = await edgeRequest(bed.emulator.edgeUrl, host, '/other');
    expect(missed.status).toBe(404);
    expect(missed.body).toContain(String(missed.headers['x-azure-ref']));
  });

  it('splits traffic by weight between equal-priority origins in one latency band (2,000 requests, ±5 points)', async () => {
    const host = await endpointWithGroup('weights', 'og-weights', [
      { name: 'heavy', backend: backends.a, weight: 300 },
      { name: 'light', backend: backends.b, weight: 100 },
    ]);
    const split = await originSplit(bed.emulator.edgeUrl, host, '/', 2000);
    const heavyShare = ((split.get('heavy') ?? 0) / 2000) * 100;
    expect(split.get('heavy')! + split.get('light')!).toBe(2000);
    expect(Math.abs(heavyShare - 75)).toBeLessThanOrEqual(5);
    // 2,000 requests through the edge: room for a shared, busy 2-core machine (this is not a timing assertion).
  }, 30_000);

  it('gives nothing to an origin outside the latency band, and nothing to a lower priority while higher ones serve', async () => {
    const host = await endpointWithGroup('latency', 'og-latency', [
      { name: 'near', backend: backends.a, hostName: '127.0.0.1' },
      { name: 'band', backend: backends.b, hostName: 'localhost' },
      { name: 'backup', backend: backends.c, priority: 2, hostName: '127.0.0.1' },
    ]);
    bed.emulator.admin.setOriginLatency('127.0.0.1', 10);
    bed.emulator.admin.setOriginLatency('localhost', 45);
    const inBand = await originSplit(bed.emulator.edgeUrl, host, '/', 300);
    expect(inBand.get('near')).toBeGreaterThan(0);
    expect(inBand.get('band')).toBeGreaterThan(0);
    expect(inBand.get('backup')).toBeUndefined();
    bed.emulator.admin.setOriginLatency('localhost', 200);
    const outOfBand = await originSplit(bed.emulator.edgeUrl, host, '/', 300);
    expect(outOfBand.get('near')).toBe(300);
    bed.emulator.admin.setOriginLatency('127.0.0.1', 0);
    bed.emulator.admin.setOriginLatency('localhost', 0);
  });

  it("answers 503 with AFD's page when the only enabled origin cannot be resolved (RFC 6761 .invalid), and 404 for a disabled route or endpoint", async () => {
    // AFD refuses a route to a group without an enabled origin (#27652): the error answer comes from an origin it cannot reach.
    const host = await endpointWithGroup('disabled', 'og-disabled', [{ name: 'only', backend: backends.a, hostName: 'unreachable.invalid' }]);
    await bed.emulator.admin.whenPropagated();
    const unavailable = await edgeRequest(bed.emulator.edgeUrl, host, '/');
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['x-azure-ref']).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{16}$/);
    expect(unavailable.body).toContain("Our services aren't available right now");
    expect(unavailable.body).toContain(String(unavailable.headers['x-azure-ref']));
    expect(unavailable.headers['x-emulator-origin']).toBeUndefined();

    await bed.cdn.afdOrigins.beginUpdateAndWait(RG, 'fd', 'og-disabled', 'only', { hostName: '127.0.0.1' }, FAST_POLLING);
    await bed.emulator.admin.whenPropagated();
    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/')).status).toBe(200);
    await bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'disabled', 'default', { enabledState: 'Disabled' }, FAST_POLLING);
    await bed.emulator.admin.whenPropagated();
    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/')).status).toBe(404);

    await bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'disabled', 'default', { enabledState: 'Enabled' }, FAST_POLLING);
    await bed.cdn.afdEndpoints.beginUpdateAndWait(RG, 'fd', 'disabled', { enabledState: 'Disabled' }, FAST_POLLING);
    await bed.emulator.admin.whenPropagated();
    expect((await edgeRequest(bed.emulator.edgeUrl, host, '/')).status).toBe(404);
  });

  it('serves a custom domain only once it is validated and associated with the route; redirects HTTP to HTTPS when asked', async () => {
    await createEndpoint(bed, 'fd', 'branded');
    await createOriginGroup(bed, 'fd', 'og-branded');
    await createOrigin(bed, 'fd', 'og-branded', { name: 'o', hostName: '127.0.0.1', httpPort: backends.a.port });
    await bed.cdn.afdCustomDomains.beginCreateAndWait(
      RG,
      'fd',
      'www',
      { hostName: 'www.contoso.example', tlsSettings: { certificateType: 'ManagedCertificate' } },
      FAST_POLLING,
    );
    await createRoute(bed, 'fd', 'branded', 'r', 'og-branded', {
      customDomains: [{ id: cdnId('profiles', 'fd', 'customDomains', 'www') }],
      linkToDefaultDomain: 'Disabled',
      httpsRedirect: 'Enabled',
    });
    await bed.emulator.admin.whenPropagated();
    expect((await edgeRequest(bed.emulator.edgeUrl, 'www.contoso.example', '/', { https: true })).status).toBe(404);
    bed.emulator.admin.validateCustomDomain(cdnId('profiles', 'fd', 'customDomains', 'www'));
    await bed.emulator.admin.whenPropagated();
    expect((await edgeRequest(bed.emulator.edgeUrl, 'www.contoso.example', '/', { https: true })).status).toBe(200);
    const redirect = await edgeRequest(bed.emulator.edgeUrl, 'www.contoso.example', '/cart?id=1');
    expect(redirect.status).toBe(307);
    expect(redirect.headers.location).toBe('https://www.contoso.example/cart?id=1');
  });
});

describe('health probes', () => {
  it("probe at the group's path and method with the origin host header; traffic leaves an unhealthy origin; all unhealthy means all are used", async () => {
    const host = await createEndpoint(bed, 'fd', 'health');
    await bed.cdn.afdOriginGroups.beginCreateAndWait(
      RG,
      'fd',
      'og-health',
      {
        loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3, additionalLatencyInMilliseconds: 50 },
        healthProbeSettings: { probePath: '/healthz', probeProtocol: 'Http', probeRequestType: 'HEAD', probeIntervalInSeconds: 1 },
      },
      FAST_POLLING,
    );
    await createOrigin(bed, 'fd', 'og-health', { name: 'a', hostName: '127.0.0.1', httpPort: backends.a.port, extra: { originHostHeader: 'a.internal' } });
    await createOrigin(bed, 'fd', 'og-health', { name: 'b', hostName: '127.0.0.1', httpPort: backends.b.port });
    await createRoute(bed, 'fd', 'health', 'r', 'og-health');
    await bed.emulator.admin.whenPropagated();
    backends.a.probeStatus = 500;
    // Probes run every 10 ms (1 s × 0.01); two failures in the last four samples make an origin unhealthy. The loops
    // send requests until the prober's verdict shows in the traffic (bounded by a deadline, no sleeping).
    const deadline = Date.now() + 10_000;
    let split = new Map<string, number>();
    while (Date.now() < deadline) {
      split = await originSplit(bed.emulator.edgeUrl, host, '/', 40, 4);
      if (split.get('a') === undefined) break;
    }
    expect(split.get('b')).toBe(40);
    expect(backends.a.probes.at(-1)).toEqual({ method: 'HEAD', host: 'a.internal', userAgent: 'Edge Health Probe' });
    expect(backends.b.probes.at(-1)?.host).toBe('127.0.0.1');
    backends.b.probeStatus = 503;
    let bothUnhealthy = new Map<string, number>();
    while (Date.now() < deadline) {
      bothUnhealthy = await originSplit(bed.emulator.edgeUrl, host, '/', 60, 4);
      if ((bothUnhealthy.get('a') ?? 0) > 0 && (bothUnhealthy.get('b') ?? 0) > 0) break;
    }
    expect(bothUnhealthy.get('a')).toBeGreaterThan(0);
    expect(bothUnhealthy.get('b')).toBeGreaterThan(0);
    backends.a.probeStatus = 200;
    backends.b.probeStatus = 200;
  });
});

/** An internal load balancer and PLS in front of `backend`, and a route to a Private Link origin through it. */
async function privateLinkRoute(target: TestBed, backend: Backend): Promise<{ host: string }> {
  const lb = await createInternalLoadBalancer(target, 'kubernetes-internal', ['fe-app']);
  const address = lb.frontendIPConfigurations?.[0]?.privateIPAddress as string;
  target.emulator.admin.mapAddress(address, 80, { host: '127.0.0.1', port: backend.port });
  await createPrivateLinkService(target, 'pls-app', 'kubernetes-internal', 'fe-app');
  const host = await createEndpoint(target, 'fd', 'private');
  await createOriginGroup(target, 'fd', 'og-private');
  await createOrigin(target, 'fd', 'og-private', {
    name: 'member-1',
    hostName: address,
    extra: {
      sharedPrivateLinkResource: { privateLink: { id: networkId('privateLinkServices', 'pls-app') }, privateLinkLocation: 'eastus', requestMessage: 'req-1' },
    },
  });
  await createRoute(target, 'fd', 'private', 'r', 'og-private');
  await target.emulator.admin.whenPropagated();
  return { host };
}

describe('Private Link gating', () => {
  it('an origin carries no traffic until its connection is Approved, none once Rejected; a rejected connection is not approved again (A26)', async () => {
    const { host } = await privateLinkRoute(bed, backends.c);
    const atEachEdge = () => Promise.all([0, 1, 2].map((edge) => edgeRequest(bed.emulator.edgeUrl, host, '/through-pl', { edge }).then((r) => r.status)));
    expect(await atEachEdge()).toEqual([503, 503, 503]);

    const connection = (await bed.network.privateLinkServices.get(RG, 'pls-app')).privateEndpointConnections?.[0]?.name as string;
    const setState = async (status: 'Approved' | 'Rejected') => {
      await bed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-app', connection, { privateLinkServiceConnectionState: { status } });
      await bed.emulator.admin.whenPropagated();
    };
    const served = backends.c.requests.length;
    await setState('Approved');
    expect(await atEachEdge()).toEqual([200, 200, 200]);
    expect(backends.c.requests.slice(served).map((request) => request.path)).toEqual(['/through-pl', '/through-pl', '/through-pl']);
    await setState('Rejected');
    expect(await atEachEdge()).toEqual([503, 503, 503]);
    const again = await restErrorOf(setState('Approved'));
    expect([again.statusCode, again.code]).toEqual([400, 'PrivateEndpointConnectionRejected']);
    expect(await atEachEdge()).toEqual([503, 503, 503]);
  });

  it('serves once the approval has propagated by the emulator’s clock, also when timers run ahead of it and nothing else changes', async () => {
    // A clock at 90 % of real time: the propagation timer fires while the clock still says 450 of 500 ms.
    const origin = Date.now();
    const slow = await startTestBed({ privateLink: { approvalPropagationMs: 500 }, clock: () => origin + (Date.now() - origin) * 0.9 });
    try {
      await createProfile(slow, 'fd');
      const { host } = await privateLinkRoute(slow, backends.c);
      const connection = (await slow.network.privateLinkServices.get(RG, 'pls-app')).privateEndpointConnections?.[0]?.name as string;
      await slow.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-app', connection, {
        privateLinkServiceConnectionState: { status: 'Approved' },
      });
      const approvedAt = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - approvedAt < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await slow.emulator.admin.whenPropagated();
        status = (await edgeRequest(slow.emulator.edgeUrl, host, '/')).status;
      }
      expect(status).toBe(200);
    } finally {
      await slow.emulator.stop();
    }
  });

  it('after approval the edge serves only once the approval has propagated (approvalPropagationMs)', async () => {
    const timed = await startTestBed({ privateLink: { approvalPropagationMs: 500 } });
    try {
      await createProfile(timed, 'fd');
      const { host } = await privateLinkRoute(timed, backends.c);
      const connection = (await timed.network.privateLinkServices.get(RG, 'pls-app')).privateEndpointConnections?.[0]?.name as string;
      const approvedAt = Date.now();
      await timed.network.privateLinkServices.updatePrivateEndpointConnection(RG, 'pls-app', connection, {
        privateLinkServiceConnectionState: { status: 'Approved' },
      });
      await timed.emulator.admin.whenPropagated();
      expect((await timed.cdn.afdOrigins.get(RG, 'fd', 'og-private', 'member-1')).sharedPrivateLinkResource?.status).toBe('Approved');
      // Every answer before the propagation time is AFD's 503; the first 200 comes no earlier than 500 ms after the
      // approval (a lower bound only: a loaded machine may take longer to get there).
      let status = (await edgeRequest(timed.emulator.edgeUrl, host, '/')).status;
      while (status !== 200 && Date.now() - approvedAt < 20_000) {
        expect(status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await timed.emulator.admin.whenPropagated();
        status = (await edgeRequest(timed.emulator.edgeUrl, host, '/')).status;
      }
      expect(status).toBe(200);
      expect(Date.now() - approvedAt).toBeGreaterThanOrEqual(500);
    } finally {
      await timed.emulator.stop();
    }
  });
});
