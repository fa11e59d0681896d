import { objectPath } from '@fleet-gateway/controller';
import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceGrants } from './gateway-api-resources.js';
import { armReads, armWrites, EdgeProbe, originNames, profileOf, whenProgrammed } from './test-support/hub-probes.js';
import {
  APP_NAMESPACE,
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  publishExport,
  readRoute,
  routeBody,
  routePath,
  startHubWithAgent,
  type HubUnderTest,
} from './test-support/hub-under-test.js';

// Explicit changes are acted on (a grant revoked, weight 0), missing information never is (a member's stale report);
// what AFD cannot express is named on its route while the rest of the Gateway stays programmed.
let hub: HubUnderTest;
let edge: EdgeProbe;
const OTHER_TEAM = 'other-team';
const grantPath = objectPath(referenceGrants, 'shop-routes-to-billing', OTHER_TEAM);

beforeAll(async () => {
  ({ hub } = await startHubWithAgent());
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const parentCondition = async (route: string, type: string) => conditionOf((await readRoute(hub.client, route)).status?.parents?.[0], type);
/** The count of "observed Azure" lines of one Gateway's reconciles: a new one means it looked at Azure again. */
const observations = (gateway: string) => hub.logs.lines.filter((l) => l.message === 'observed Azure' && l.name === gateway).length;

describe('explicit versus missing information', { timeout: 60_000 }, () => {
  it('a cross-namespace backend is served while a ReferenceGrant allows it and withdrawn once the grant is revoked', async () => {
    await edge.serveAt('10.5.0.1', 'billing@member-1');
    await publishExport(hub.client, { cluster: 'member-1', service: 'billing', namespace: OTHER_TEAM, publicAddress: '10.5.0.1' });
    await applyObject(hub.client, grantPath, {
      apiVersion: 'gateway.networking.k8s.io/v1beta1',
      kind: 'ReferenceGrant',
      metadata: { name: 'shop-routes-to-billing', namespace: OTHER_TEAM },
      spec: {
        from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: APP_NAMESPACE }],
        to: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport' }],
      },
    });
    await applyObject(hub.client, gatewayPath('granted'), gatewayBody('granted'));
    await applyObject(
      hub.client,
      routePath('billing'),
      routeBody('billing', 'granted', [{ path: '/billing', backends: [{ name: 'billing', namespace: OTHER_TEAM }] }]),
    );
    const host = (await whenProgrammed(hub, 'granted', ['billing'])).status?.addresses?.[0]?.value ?? '';
    expect(await edge.answers('/billing/invoice', host, 'billing@member-1')).toEqual({ status: 200, body: 'billing@member-1' });

    await hub.client.delete(grantPath);
    const refused = await eventually(
      () => parentCondition('billing', 'ResolvedRefs'),
      (c) => c?.status === 'False',
      30_000,
    );
    expect(refused?.reason).toBe('RefNotPermitted');
    expect(refused?.message).toContain(`no ReferenceGrant in namespace ${OTHER_TEAM} allows HTTPRoutes from ${APP_NAMESPACE}`);
    const profile = await profileOf(hub, 'granted');
    const served = (names: string[]) => names.filter((n) => !n.startsWith('og-withdrawn-'));
    expect(
      served(
        await eventually(
          () => originNames(hub, profile),
          (names) => served(names).length === 0,
          30_000,
        ),
      ),
    ).toEqual([]);
    const withdrawn = await edge.until('/billing/invoice', host, (a) => a.status >= 500);
    expect(withdrawn.status).toBeGreaterThanOrEqual(500);
    expect(withdrawn.body).not.toContain('billing@member-1');
  });

  it('a member marked stale keeps its origin as programmed (no write); weight 0 from that member withdraws it', async () => {
    await edge.serveAt('10.4.1.1', 'web@member-1');
    await edge.serveAt('10.4.2.1', 'web@member-2');
    await publishExport(hub.client, { cluster: 'member-1', service: 'web', publicAddress: '10.4.1.1' });
    await publishExport(hub.client, { cluster: 'member-2', service: 'web', publicAddress: '10.4.2.1' });
    await applyObject(hub.client, gatewayPath('fleet'), gatewayBody('fleet'));
    await applyObject(hub.client, routePath('web'), routeBody('web', 'fleet', [{ path: '/', backends: [{ name: 'web' }] }]));
    const host = (await whenProgrammed(hub, 'fleet', ['web'])).status?.addresses?.[0]?.value ?? '';
    const profile = await profileOf(hub, 'fleet');
    const programmed = await eventually(
      () => originNames(hub, profile),
      (names) => names.length === 2,
      30_000,
    );
    expect(programmed).toHaveLength(2);
    const bothAnswer = async () => {
      const answers = new Set<string>();
      for (let i = 0; i < 12; i++) answers.add((await edge.get('/', host, i % 3)).body);
      return [...answers].sort();
    };
    await edge.until('/', host, (a) => a.status === 200);
    expect(await eventually(bothAnswer, (a) => a.length === 2, 30_000)).toEqual(['web@member-1', 'web@member-2']);

    // Missing information: member-2 could not refresh its Azure data (here its address even changed meanwhile).
    const [writes, reads, looked] = [armWrites(hub), armReads(hub), observations('fleet')];
    await publishExport(hub.client, { cluster: 'member-2', service: 'web', publicAddress: '10.4.2.99', azureDataStale: true });
    await eventually(
      () => observations('fleet'),
      (n) => n > looked,
      30_000,
    );
    expect(armReads(hub)).toBeGreaterThan(reads);
    expect(armWrites(hub)).toBe(writes);
    expect(await originNames(hub, profile)).toEqual(programmed);
    await hub.emulator.admin.whenPropagated();
    expect(await bothAnswer()).toEqual(['web@member-1', 'web@member-2']);

    // Explicit: member-2 exports with weight 0 (fresh data): its origin stops taking traffic.
    await publishExport(hub.client, { cluster: 'member-2', service: 'web', publicAddress: '10.4.2.1', weight: 0 });
    const remaining = await eventually(
      () => originNames(hub, profile),
      (names) => names.length === 1,
      30_000,
    );
    expect(remaining).toEqual([programmed.find((n) => n.includes('o-member-1-'))]);
    await edge.until('/', host, (a) => a.body === 'web@member-1');
    for (let i = 0; i < 9; i++) expect(await edge.get('/', host, i % 3)).toEqual({ status: 200, body: 'web@member-1' });
  });

  it('unsupported route fields are named on their route; the route’s other rules and the other routes stay programmed', async () => {
    await edge.serveAt('10.3.0.1', 'cart@member-1');
    await publishExport(hub.client, { cluster: 'member-1', service: 'cart', publicAddress: '10.3.0.1' });
    await applyObject(hub.client, gatewayPath('mixed'), gatewayBody('mixed'));
    await applyObject(hub.client, routePath('plain'), routeBody('plain', 'mixed', [{ path: '/plain', backends: [{ name: 'cart' }] }]));
    const backendRefs = [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'cart', port: 80 }];
    await applyObject(hub.client, routePath('odd'), {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'odd', namespace: APP_NAMESPACE },
      spec: {
        parentRefs: [{ name: 'mixed', namespace: APP_NAMESPACE }],
        rules: [
          { matches: [{ path: { type: 'RegularExpression', value: '/items/[0-9]+' } }], backendRefs },
          {
            matches: [{ path: { type: 'PathPrefix', value: '/mirrored' } }],
            filters: [{ type: 'RequestMirror', requestMirror: { backendRef: { ...backendRefs[0] } } }],
            backendRefs,
          },
          { matches: [{ path: { type: 'PathPrefix', value: '/ok' } }], backendRefs },
        ],
      },
    });

    const host = (await whenProgrammed(hub, 'mixed', ['plain', 'odd'])).status?.addresses?.[0]?.value ?? '';
    const partial = await eventually(
      () => parentCondition('odd', 'PartiallyInvalid'),
      (c) => c?.status === 'True',
      30_000,
    );
    expect(partial?.reason).toBe('UnsupportedValue');
    expect(partial?.message).toMatch(/^Dropped Rule\(s\): /);
    expect(partial?.message).toContain('path type RegularExpression (/items/[0-9]+) is not supported');
    expect(partial?.message).toContain('filter RequestMirror is not supported');
    expect(await parentCondition('odd', 'Accepted')).toMatchObject({ status: 'True' });
    expect(await parentCondition('plain', 'PartiallyInvalid')).toBeUndefined();

    expect(await edge.answers('/ok/1', host, 'cart@member-1')).toEqual({ status: 200, body: 'cart@member-1' });
    expect(await edge.get('/plain', host)).toEqual({ status: 200, body: 'cart@member-1' });
    // The dropped rules are not programmed: their paths match no route of the endpoint.
    expect((await edge.get('/mirrored/x', host)).status).toBe(404);
    expect((await edge.get('/items/42', host)).status).toBe(404);
  });
});
