import { corsHeadersOf, edgeRequest, preflightFrom, type EdgeRequestOptions } from '@fleet-gateway/azure-emulator';
import { NEWEST_GATEWAY_API_VERSION } from '@fleet-gateway/control-plane';
import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EdgeProbe, whenProgrammed } from './test-support/hub-probes.js';
import {
  APP_NAMESPACE,
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  readRoute,
  routePath,
  startHubWithAgent,
  type HubUnderTest,
} from './test-support/hub-under-test.js';

/**
 * An HTTPRoute CORS filter and the redirect status codes, from a hub serving the newest Gateway API CRDs (where both
 * exist) through the agent, the emulator's ARM and its edge to a local backend.
 */
let hub: HubUnderTest;
let edge: EdgeProbe;

beforeAll(async () => {
  ({ hub } = await startHubWithAgent({ agent: { resyncPeriodMs: 400 }, gatewayApiVersion: NEWEST_GATEWAY_API_VERSION }));
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const backend = { group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'web', port: 80 };
const exact = (value: string) => [{ path: { type: 'Exact', value } }];
const route = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'cors', namespace: APP_NAMESPACE },
  spec: {
    parentRefs: [{ name: 'cors', namespace: APP_NAMESPACE }],
    rules: [
      {
        matches: [{ path: { type: 'PathPrefix', value: '/api' } }],
        filters: [
          {
            type: 'CORS',
            cors: {
              allowOrigins: ['https://app.example.com', 'https://admin.example.com'],
              allowCredentials: true,
              allowMethods: ['GET', 'PUT'],
              allowHeaders: ['x-token'],
              maxAge: 600,
            },
          },
        ],
        backendRefs: [backend],
      },
      {
        matches: exact('/moved'),
        filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 307, path: { type: 'ReplaceFullPath', replaceFullPath: '/new' } } }],
      },
      { matches: exact('/kept'), filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: 'new.example.com', statusCode: 308 } }] },
      { matches: exact('/see-other'), filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 303 } }] },
      { matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [backend] },
    ],
  },
};

describe('CORS and redirect status codes through the edge', { timeout: 120_000 }, () => {
  it('echoes each allowed origin, leaves others without CORS headers, redirects with 307 and 308, and refuses 303 by name', async () => {
    await edge.publishServed('web', '10.7.0.1');
    await applyObject(hub.client, gatewayPath('cors'), gatewayBody('cors'));
    await applyObject(hub.client, routePath('cors'), route);
    const gateway = await whenProgrammed(hub, 'cors', ['cors']);
    const host = gateway.status?.addresses?.[0]?.value as string;
    const send = (path: string, options?: EdgeRequestOptions) => edgeRequest(hub.emulator.edgeUrl, host, path, options);

    const refused = conditionOf((await readRoute(hub.client, 'cors')).status?.parents?.[0], 'PartiallyInvalid');
    expect(refused?.message).toContain('RequestRedirect statusCode 303 is not supported (AFD redirects have no 303); expected 301, 302, 307 or 308');

    // Preflight: the backend answers the OPTIONS request; the rules add the allow headers for the listed origin.
    const answer = await eventually(
      async () => {
        await hub.emulator.admin.whenPropagated();
        return send('/api/orders', preflightFrom('https://app.example.com'));
      },
      (a) => a.headers['access-control-allow-origin'] !== undefined,
      30_000,
    );
    expect([answer.status, answer.body]).toEqual([200, 'web@member-1']);
    expect(corsHeadersOf(answer)).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, PUT',
      'access-control-allow-headers': 'x-token',
      'access-control-max-age': '600',
    });

    // Actual requests from the two allowed origins in turn: each gets its own origin back, and Vary names Origin.
    for (const origin of ['https://admin.example.com', 'https://app.example.com', 'https://admin.example.com']) {
      const actual = await send('/api/orders', { method: 'PUT', headers: { origin } });
      expect([actual.body, corsHeadersOf(actual), actual.headers.vary]).toEqual([
        'web@member-1',
        { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' },
        ', Origin',
      ]);
    }

    // An origin not allowed: served, without any CORS header; so is a request without Origin.
    for (const options of [preflightFrom('https://evil.example.com'), { headers: { origin: 'https://evil.example.com' } }, {}]) {
      const other = await send('/api/orders', options);
      expect([other.body, corsHeadersOf(other)]).toEqual(['web@member-1', {}]);
    }
    // The CORS filter is the /api rule's: other paths get no CORS headers.
    expect(corsHeadersOf(await send('/home', { headers: { origin: 'https://app.example.com' } }))).toEqual({});

    const temporary = await send('/moved', { method: 'POST' });
    expect([temporary.status, temporary.headers.location]).toEqual([307, `http://${host}/new`]);
    const permanent = await send('/kept');
    expect([permanent.status, permanent.headers.location]).toEqual([308, 'http://new.example.com/kept']);
    // The refused rule is not programmed: /see-other falls to the route's `/` rule.
    expect((await send('/see-other')).body).toBe('web@member-1');
  });
});
