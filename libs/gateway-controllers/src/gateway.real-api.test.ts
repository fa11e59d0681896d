import { OWNERSHIP_TAGS } from '@fleet-gateway/azure-frontdoor';
import { isNotFound as isArmNotFound } from '@fleet-gateway/arm-runtime';
import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_FINALIZER } from './gateway-finalizer.js';
import {
  armReads,
  armWrites,
  EdgeProbe,
  gone,
  originNames as enabledOriginNames,
  profileOf as profileNameOf,
  programmedOf as programmedConditionOf,
  whenProgrammed as whenGatewayProgrammed,
} from './test-support/hub-probes.js';
import {
  applyObject,
  conditionOf,
  exportPath,
  gatewayBody,
  gatewayPath,
  HUB_IDENTITY,
  publishExport,
  readExport,
  readGateway,
  readRoute,
  routeBody,
  routePath,
  SCOPE,
  startHubWithAgent,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';

let hub: HubUnderTest;
let agent: RunningAgent;
let edge: EdgeProbe;

beforeAll(async () => {
  ({ hub, agent } = await startHubWithAgent({ agent: { resyncPeriodMs: 400 } }));
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const serveAt = (address: string, name: string) => edge.serveAt(address, name);
const edgeGet = (path: string, host: string, edgeIndex = 0) => edge.get(path, host, edgeIndex);
const edgeAnswers = (path: string, host: string, body: string) => edge.answers(path, host, body);
const writes = () => armWrites(hub);
const reads = () => armReads(hub);
const programmedOf = (name: string) => programmedConditionOf(hub, name);
const whenProgrammed = (name: string, routes: readonly string[] = []) => whenGatewayProgrammed(hub, name, routes);
const profileOf = (name: string) => profileNameOf(hub, name);
const originNames = (profile: string) => enabledOriginNames(hub, profile);

describe('the hub agent on a real API server and the Azure emulator', { timeout: 120_000 }, () => {
  it('programs a Gateway with two routes and two clusters, withdraws what is unexported, and deletes it all', async () => {
    await serveAt('10.1.0.1', 'web@member-1');
    await serveAt('10.2.0.1', 'web@member-2');
    await serveAt('10.1.0.2', 'api@member-1');
    await publishExport(hub.client, { cluster: 'member-1', service: 'web', publicAddress: '10.1.0.1' });
    await publishExport(hub.client, { cluster: 'member-2', service: 'web', publicAddress: '10.2.0.1' });
    await publishExport(hub.client, { cluster: 'member-1', service: 'api', publicAddress: '10.1.0.2' });
    await applyObject(hub.client, gatewayPath('life'), gatewayBody('life'));
    await applyObject(hub.client, routePath('shop'), routeBody('shop', 'life', [{ path: '/shop', backends: [{ name: 'web' }] }]));
    await applyObject(hub.client, routePath('api'), routeBody('api', 'life', [{ path: '/', backends: [{ name: 'api' }] }]));

    const gateway = await whenProgrammed('life', ['shop', 'api']);
    expect(conditionOf(gateway, 'Accepted')).toMatchObject({ status: 'True', observedGeneration: 1 });
    expect(conditionOf(gateway, 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed', observedGeneration: 1 });
    expect(gateway.metadata.finalizers).toContain(GATEWAY_FINALIZER);
    const host = gateway.status?.addresses?.[0];
    expect(host?.type).toBe('Hostname');
    expect(host?.value).toMatch(/\.azurefd\.net$/);
    expect(gateway.status?.listeners?.[0]).toMatchObject({
      name: 'http-0',
      attachedRoutes: 2,
      supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
    });
    expect(gateway.status?.listeners?.[0]?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed' });

    const shop = await readRoute(hub.client, 'shop');
    expect(shop.status?.parents).toHaveLength(1);
    expect(conditionOf(shop.status?.parents?.[0], 'Accepted')).toMatchObject({ status: 'True' });
    expect(conditionOf(shop.status?.parents?.[0], 'ResolvedRefs')).toMatchObject({ status: 'True' });

    // The profile carries our ownership tags; its frontDoorId is published on every export the Gateway uses.
    const profileName = await profileOf('life');
    const profile = await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profileName);
    expect(profile.tags?.[OWNERSHIP_TAGS.hubIdentity]).toBe(HUB_IDENTITY);
    expect(profile.tags?.[OWNERSHIP_TAGS.gatewayUid]).toBe(gateway.metadata.uid);
    for (const [cluster, service] of [
      ['member-1', 'web'],
      ['member-2', 'web'],
      ['member-1', 'api'],
    ] as const) {
      const ise = await eventually(
        () => readExport(hub.client, cluster, service),
        (e) => (e.status?.frontDoors ?? []).length > 0,
      );
      expect(ise.status?.frontDoors).toEqual([
        { gateway: 'shop/life', gatewayUID: gateway.metadata.uid, profile: profileName, frontDoorID: profile.frontDoorId },
      ]);
    }
    expect(await originNames(profileName)).toHaveLength(3);

    await edgeAnswers('/home', host!.value, 'api@member-1');
    const shopAnswers = new Set<string>();
    for (let i = 0; i < 12; i++) shopAnswers.add((await edgeGet('/shop/cart', host!.value, i % 3)).body);
    expect([...shopAnswers].sort()).toEqual(['web@member-1', 'web@member-2']);
    expect(await edgeGet('/home', host!.value)).toEqual({ status: 200, body: 'api@member-1' });

    // member-2 unexports web: its origin goes, member-1 keeps serving /shop.
    await hub.client.delete(exportPath('member-2', 'web'));
    await eventually(
      () => originNames(profileName),
      (names) => names.length === 2,
      30_000,
    );
    await eventually(
      () => gone(() => readExport(hub.client, 'member-2', 'web')),
      (g) => g,
      30_000,
    );
    await hub.emulator.admin.whenPropagated();
    for (let i = 0; i < 6; i++) expect(await edgeGet('/shop/cart', host!.value, i % 3)).toEqual({ status: 200, body: 'web@member-1' });

    // The last cluster unexports web: /shop answers the withdrawal's error, never the api backend behind `/`.
    await hub.client.delete(exportPath('member-1', 'web'));
    await eventually(
      () => gone(() => readExport(hub.client, 'member-1', 'web')),
      (g) => g,
      30_000,
    );
    // The ServiceImport first lists no cluster (NoOrigins), then goes too (upstream semantics: BackendNotFound).
    const withdrawn = await eventually(
      () => readRoute(hub.client, 'shop'),
      (r) => conditionOf(r.status?.parents?.[0], 'ResolvedRefs')?.status === 'False',
      30_000,
    );
    expect(['NoOrigins', 'BackendNotFound']).toContain(conditionOf(withdrawn.status?.parents?.[0], 'ResolvedRefs')?.reason);
    expect(conditionOf(withdrawn.status?.parents?.[0], 'ResolvedRefs')?.message).toMatch(/rule 0 is withdrawn \((NoBackends|NoValidBackends)\)/);
    await whenProgrammed('life', ['api']);
    // Every edge has the withdrawal once propagation is over; until then an edge may still serve web@member-1.
    const onEveryEdge = async () => {
      await hub.emulator.admin.whenPropagated();
      return Promise.all([0, 1, 2].map((edge) => edgeGet('/shop/cart', host!.value, edge)));
    };
    await eventually(onEveryEdge, (answers) => answers.every((a) => a.status >= 500), 30_000);
    for (let i = 0; i < 6; i++) {
      const answer = await edgeGet('/shop/cart', host!.value, i % 3);
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(answer.body).not.toContain('api@member-1');
    }
    expect(await edgeGet('/home', host!.value)).toEqual({ status: 200, body: 'api@member-1' });

    // Deleting the Gateway removes the profile (after the ownership check), the export entries, then the finalizer.
    await hub.client.delete(gatewayPath('life'));
    await eventually(
      () => gone(() => readGateway(hub.client, 'life')),
      (g) => g,
      30_000,
    );
    const profileState = await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profileName).then(
      (p) => p.provisioningState,
      (e: unknown) => (isArmNotFound(e) ? 'gone' : String(e)),
    );
    expect(profileState).toBe('gone');
    const api = await eventually(
      () => readExport(hub.client, 'member-1', 'api'),
      (e) => (e.status?.frontDoors ?? []).length === 0,
    );
    expect(api.status?.frontDoors ?? []).toEqual([]);
    await hub.client.delete(routePath('shop'));
    await hub.client.delete(routePath('api'));
  });

  it('an invalid Gateway edit writes nothing to Azure, names the key, and keeps serving generation 1', async () => {
    await serveAt('10.1.0.5', 'cart@member-1');
    await publishExport(hub.client, { cluster: 'member-1', service: 'cart', publicAddress: '10.1.0.5' });
    await applyObject(hub.client, gatewayPath('held'), gatewayBody('held'));
    await applyObject(hub.client, routePath('cart'), routeBody('cart', 'held', [{ path: '/', backends: [{ name: 'cart' }] }]));
    const programmed = await whenProgrammed('held', ['cart']);
    const host = programmed.status?.addresses?.[0]?.value ?? '';
    expect(await edgeAnswers('/', host, 'cart@member-1')).toEqual({ status: 200, body: 'cart@member-1' });

    const before = writes();
    // An annotation edit does not bump the generation: the message says the edits since generation 1 are refused.
    await applyObject(hub.client, gatewayPath('held'), gatewayBody('held', { 'networking.fleet.azure.com/afd-sku': 'Gold_AzureFrontDoor' }));
    const held = await eventually(
      () => readGateway(hub.client, 'held'),
      (g) => conditionOf(g, 'Accepted')?.status === 'False',
    );
    expect(conditionOf(held, 'Accepted')?.message).toContain('networking.fleet.azure.com/afd-sku');
    expect(conditionOf(held, 'Accepted')?.message).toContain('Gold_AzureFrontDoor');
    const heldProgrammed = await eventually(
      () => programmedOf('held'),
      (c) => /^serves the configuration/.test(c?.message ?? ''),
    );
    expect(heldProgrammed).toMatchObject({ status: 'True', reason: 'Programmed', observedGeneration: 1 });
    expect(heldProgrammed?.message).toMatch(
      /^serves the configuration accepted at generation 1; generation 1 is no longer accepted after a change outside its spec \(Invalid: annotation "networking.fleet.azure.com\/afd-sku" has unsupported value "Gold_AzureFrontDoor"/,
    );
    expect(writes()).toBe(before);
    expect(await edgeGet('/', host)).toEqual({ status: 200, body: 'cart@member-1' });

    // A spec edit that is refused too (spec.addresses) still names generation 1, now observed at generation 2.
    await applyObject(
      hub.client,
      gatewayPath('held'),
      gatewayBody('held', { 'networking.fleet.azure.com/afd-sku': 'Gold_AzureFrontDoor' }, [{}], {
        addresses: [{ type: 'Hostname', value: 'mine.example.com' }],
      }),
    );
    const spec = await eventually(
      () => programmedOf('held'),
      (c) => c?.observedGeneration === 2,
    );
    expect(spec).toMatchObject({ status: 'True', reason: 'Programmed', observedGeneration: 2 });
    expect(spec?.message).toMatch(
      /^serves the configuration accepted at generation 1; generation 2 is not accepted \(see Accepted\), so nothing was changed in Azure: Azure Front Door configuration is ready/,
    );
    expect(conditionOf(await readGateway(hub.client, 'held'), 'Accepted')?.message).toContain('spec.addresses');
    expect(writes()).toBe(before);
    expect(await edgeGet('/', host)).toEqual({ status: 200, body: 'cart@member-1' });

    // Fixed: programmed again at generation 3, with no trace of the hold.
    await applyObject(hub.client, gatewayPath('held'), gatewayBody('held'));
    expect(
      await eventually(
        () => programmedOf('held'),
        (c) => c?.observedGeneration === 3 && c.status === 'True',
      ),
    ).toMatchObject({ reason: 'Programmed', observedGeneration: 3 });
    expect((await programmedOf('held'))?.message).not.toContain('serves the configuration accepted');
    expect(conditionOf(await readGateway(hub.client, 'held'), 'Accepted')).toMatchObject({ status: 'True', observedGeneration: 3 });
  });

  it('keeps other controllers’ parent entries on a shared HTTPRoute and clears ours when the route detaches', async () => {
    await publishExport(hub.client, { cluster: 'member-1', service: 'blog', publicAddress: '10.1.0.9' });
    await applyObject(hub.client, gatewayPath('shared'), gatewayBody('shared'));
    const body = routeBody('blog', 'shared', [{ path: '/', backends: [{ name: 'blog' }] }]);
    const twoParents = { ...body, spec: { ...body.spec, parentRefs: [...body.spec.parentRefs, { name: 'mesh-gw', namespace: 'shop' }] } };
    await applyObject(hub.client, routePath('blog'), twoParents);
    // Another Gateway controller reports on its own parent; its entry must survive ours.
    const foreign = {
      parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'mesh-gw', namespace: 'shop' },
      controllerName: 'example.com/mesh',
      conditions: [
        { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'mesh', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
    };
    const current = await readRoute(hub.client, 'blog');
    await hub.client
      .patch(
        `${routePath('blog')}/status`,
        { metadata: { resourceVersion: current.metadata.resourceVersion }, status: { parents: [...(current.status?.parents ?? []), foreign] } },
        'merge',
      )
      .catch(async () => {
        const again = await readRoute(hub.client, 'blog');
        await hub.client.patch(`${routePath('blog')}/status`, { status: { parents: [...(again.status?.parents ?? []), foreign] } }, 'merge');
      });
    const both = await eventually(
      () => readRoute(hub.client, 'blog'),
      (r) =>
        (r.status?.parents ?? []).length === 2 &&
        conditionOf(
          r.status?.parents?.find((p) => p.controllerName !== 'example.com/mesh'),
          'ResolvedRefs',
        )?.status === 'True',
      30_000,
    );
    expect(both.status?.parents?.find((p) => p.controllerName === 'example.com/mesh')).toEqual(foreign);
    await whenProgrammed('shared', ['blog']);

    // The route stops naming our Gateway: our entry goes, the other controller's stays.
    await applyObject(hub.client, routePath('blog'), { ...twoParents, spec: { ...twoParents.spec, parentRefs: [{ name: 'mesh-gw', namespace: 'shop' }] } });
    const detached = await eventually(
      () => readRoute(hub.client, 'blog'),
      (r) => (r.status?.parents ?? []).length === 1,
      30_000,
    );
    expect(detached.status?.parents).toEqual([foreign]);
    expect(
      (
        await eventually(
          () => readGateway(hub.client, 'shared'),
          (g) => g.status?.listeners?.[0]?.attachedRoutes === 0,
        )
      ).status?.listeners?.[0]?.attachedRoutes,
    ).toBe(0);
  });

  it('in steady state, several resyncs write nothing to Azure or to the API server', async () => {
    await publishExport(hub.client, { cluster: 'member-2', service: 'steady', publicAddress: '10.2.0.9' });
    await applyObject(hub.client, gatewayPath('steady'), gatewayBody('steady'));
    await applyObject(hub.client, routePath('steady'), routeBody('steady', 'steady', [{ path: '/', backends: [{ name: 'steady' }] }]));
    await whenProgrammed('steady', ['steady']);
    await eventually(
      () => readExport(hub.client, 'member-2', 'steady'),
      (e) => (e.status?.frontDoors ?? []).length === 1,
    );
    // Let the last status writes land in the caches, then measure over several resync periods (400 ms each).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const versions = async () => [
      (await readGateway(hub.client, 'steady')).metadata.resourceVersion,
      (await readRoute(hub.client, 'steady')).metadata.resourceVersion,
      (await readExport(hub.client, 'member-2', 'steady')).metadata.resourceVersion,
    ];
    const [writesBefore, readsBefore, versionsBefore, statusWrites] = [writes(), reads(), await versions(), agent.gateway.statusWriter.writes];
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(writes()).toBe(writesBefore);
    expect(reads()).toBe(readsBefore);
    expect(await versions()).toEqual(versionsBefore);
    expect(agent.gateway.statusWriter.writes).toBe(statusWrites);
  });
});
