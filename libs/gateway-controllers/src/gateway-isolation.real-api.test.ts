import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EdgeProbe,
  linesWithStackTraces,
  originNames,
  profileOf,
  programmedOf,
  settled as settledProbe,
  whenImported,
  whenProgrammed,
  whenWarned,
} from './test-support/hub-probes.js';
import {
  applyGatewayWithRoute,
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  publishExport,
  readGateway,
  routeBody,
  routePath,
  SCOPE,
  startHubWithAgent,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';
import { eventually } from '@fleet-gateway/controller/test-support';

// One Gateway failing terminally does not hold back the others: its key waits for the terminal recheck (5 min by
// default) instead of retrying, and while its programming hangs on a slow ARM read the other Gateways are programmed.
let hub: HubUnderTest;
let agent: RunningAgent;
let edge: EdgeProbe;
const WAF_POLICIES = 'Microsoft.Network/frontdoorWebApplicationFirewallPolicies';
const MISSING_POLICY = `/subscriptions/${SCOPE.subscriptionId}/resourceGroups/${SCOPE.resourceGroup}/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/nosuchpolicy`;
const SLOW_READ_MS = 6_000;

beforeAll(async () => {
  ({ hub, agent } = await startHubWithAgent());
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const settled = (name: string): boolean => settledProbe(hub, agent, name);
const wafReads = () => hub.emulator.admin.requestTotal({ method: 'GET', resourceType: WAF_POLICIES });

const createGateway = (name: string, annotations: Record<string, string> = {}) =>
  applyGatewayWithRoute(hub.client, name, { annotations, backend: `${name}-web` });

describe('one Gateway failing terminally while others converge', { timeout: 60_000 }, () => {
  it('a missing WAF policy fails its Gateway alone, with no retry storm, while two others are programmed and reprogrammed', async () => {
    for (const name of ['broken', 'alpha', 'beta'])
      await publishExport(hub.client, { cluster: 'member-1', service: `${name}-web`, publicAddress: `10.7.0.${name.length}` });
    // The broken Gateway's first read of its WAF policy hangs for a while: its worker is busy, the others are not.
    hub.emulator.admin.injectFault({
      kind: 'latency',
      method: 'GET',
      pathPattern: '/frontdoorWebApplicationFirewallPolicies/nosuchpolicy$',
      latencyMs: SLOW_READ_MS,
      count: 1,
    });
    await createGateway('broken', { 'networking.fleet.azure.com/afd-waf-policy-id': MISSING_POLICY });
    await createGateway('alpha');
    await createGateway('beta');

    await whenProgrammed(hub, 'alpha', ['alpha']);
    await whenProgrammed(hub, 'beta', ['beta']);
    // Its programming still reads Azure, apart from the workers; its status says so.
    const reading = await eventually(
      () => programmedOf(hub, 'broken'),
      (c) => c?.message.includes('reading the AFD profile') === true,
      SLOW_READ_MS,
    );
    expect(reading).toMatchObject({ status: 'False', reason: 'Pending', observedGeneration: 1 });

    const failed = await eventually(
      () => programmedOf(hub, 'broken'),
      (c) => c?.reason !== 'Pending',
      SLOW_READ_MS + 20_000,
    );
    expect(failed).toMatchObject({ status: 'False', reason: 'WafPolicyNotFound', observedGeneration: 1 });
    expect(failed?.message).toContain(`annotation "networking.fleet.azure.com/afd-waf-policy-id" names WAF policy "${MISSING_POLICY}", which does not exist`);
    expect(conditionOf(await readGateway(hub.client, 'broken'), 'Accepted')?.status).toBe('True');
    expect((await whenWarned(hub.client, 'broken', 'WafPolicyNotFound'))?.note).toContain('nosuchpolicy');
    // Nothing was created for it (the policy is checked before any write), and no finalizer was needed.
    await expect(hub.clients.cdn.profiles.get(SCOPE.resourceGroup, await profileOf(hub, 'broken'))).rejects.toMatchObject({ statusCode: 404 });
    expect((await readGateway(hub.client, 'broken')).metadata.finalizers ?? []).toEqual([]);

    // The others keep converging on changes, and the broken Gateway's key is not retried meanwhile.
    await eventually(
      () => settled('broken'),
      (s) => s,
      10_000,
    );
    const readsAfterFailure = wafReads();
    for (const name of ['alpha', 'beta'])
      await publishExport(hub.client, { cluster: 'member-2', service: `${name}-web`, publicAddress: `10.8.0.${name.length}` });
    for (const name of ['alpha', 'beta']) {
      const profile = await profileOf(hub, name);
      expect(
        await eventually(
          () => originNames(hub, profile),
          (origins) => origins.length === 2,
          30_000,
        ),
      ).toHaveLength(2);
    }
    await applyObject(
      hub.client,
      routePath('alpha'),
      routeBody('alpha', 'alpha', [
        { path: '/', backends: [{ name: 'alpha-web' }] },
        { path: '/beta', backends: [{ name: 'beta-web' }] },
      ]),
    );
    const alphaProfile = await profileOf(hub, 'alpha');
    const alpha = await eventually(
      () => originNames(hub, alphaProfile),
      (origins) => origins.length === 4,
      30_000,
    );
    expect(alpha).toHaveLength(4);
    expect((await programmedOf(hub, 'alpha'))?.status).toBe('True');
    expect(wafReads()).toBe(readsAfterFailure);
    expect((await programmedOf(hub, 'broken'))?.reason).toBe('WafPolicyNotFound');
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
    // A Gateway's own configuration refused is an expected condition: a warning naming the reason, never an error.
    const brokenLines = hub.logs.lines.filter((l) => l.name === 'broken');
    expect(brokenLines.filter((l) => l.level === 'error')).toEqual([]);
    expect(brokenLines.some((l) => l.level === 'warn' && l.reason === 'WafPolicyNotFound')).toBe(true);
  });

  it('a hostname conflict clears when the older Gateway’s listener moves to another hostname', async () => {
    const listener = (hostname: string) => [{ name: 'shop', hostname }];
    await applyObject(hub.client, gatewayPath('first'), gatewayBody('first', {}, listener('shop.example.com')));
    await eventually(
      () => readGateway(hub.client, 'first'),
      (g) => conditionOf(g, 'Accepted')?.status === 'True',
      30_000,
    );
    await applyObject(hub.client, gatewayPath('second'), gatewayBody('second', {}, listener('shop.example.com')));
    const conflicted = await eventually(
      () => readGateway(hub.client, 'second'),
      (g) => conditionOf(g.status?.listeners?.[0], 'Conflicted')?.status === 'True',
      30_000,
    );
    expect(conditionOf(conflicted.status?.listeners?.[0], 'Conflicted')).toMatchObject({ reason: 'HostnameConflict' });
    expect(conditionOf(conflicted.status?.listeners?.[0], 'Conflicted')?.message).toContain('held by Gateway shop/first (listener shop)');

    // Only the first (older) Gateway's spec changes: the second must be looked at again for its conflict to clear.
    await applyObject(hub.client, gatewayPath('first'), gatewayBody('first', {}, listener('store.example.com')));
    const cleared = await eventually(
      () => readGateway(hub.client, 'second'),
      (g) => conditionOf(g.status?.listeners?.[0], 'Conflicted')?.status === 'False',
      30_000,
    );
    expect(conditionOf(cleared.status?.listeners?.[0], 'Conflicted')).toMatchObject({ status: 'False', reason: 'NoConflicts' });
  });
  it('a SKU the profile cannot change to: SkuImmutable naming both SKUs, no write, the edge keeps serving; restoring it programs again', async () => {
    await edge.serveAt('10.7.9.1', 'sized@member-1');
    await publishExport(hub.client, { cluster: 'member-1', service: 'sized', publicAddress: '10.7.9.1' });
    await whenImported(hub, 'sized', ['member-1']);
    await applyGatewayWithRoute(hub.client, 'sized');
    const host = (await whenProgrammed(hub, 'sized', ['sized'])).status?.addresses?.[0]?.value ?? '';
    expect(await edge.answers('/', host, 'sized@member-1')).toEqual({ status: 200, body: 'sized@member-1' });

    const profileWrites = () => ['PUT', 'PATCH', 'DELETE'].reduce((sum, method) => sum + hub.emulator.admin.requestTotal({ method }), 0);
    const before = profileWrites();
    await applyGatewayWithRoute(hub.client, 'sized', { annotations: { 'networking.fleet.azure.com/afd-sku': 'Premium_AzureFrontDoor' } });
    const refused = await eventually(
      () => programmedOf(hub, 'sized'),
      (c) => c?.reason === 'SkuImmutable',
      30_000,
    );
    expect(refused?.status).toBe('False');
    expect(refused?.message).toContain('is Standard_AzureFrontDoor and the Gateway asks for Premium_AzureFrontDoor');
    expect((await whenWarned(hub.client, 'sized', 'SkuImmutable'))?.note).toBe(refused?.message);
    expect(profileWrites()).toBe(before);
    expect(await edge.get('/', host)).toEqual({ status: 200, body: 'sized@member-1' });

    await applyGatewayWithRoute(hub.client, 'sized');
    expect(
      await eventually(
        () => programmedOf(hub, 'sized'),
        (c) => c?.status === 'True',
        30_000,
      ),
    ).toMatchObject({ reason: 'Programmed' });
    expect(profileWrites()).toBe(before);
  });
});
