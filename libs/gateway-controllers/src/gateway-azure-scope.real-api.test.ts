import { OWNERSHIP_TAGS, ownershipTags, profileName } from '@fleet-gateway/azure-frontdoor';
import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_FINALIZER } from './gateway-finalizer.js';
import { armWrites, gatewayEvents, gone, linesWithStackTraces, programmedOf, whenImported, whenProgrammed, whenWarned } from './test-support/hub-probes.js';
import { applyGatewayWithRoute, gatewayPath, publishExport, readGateway, SCOPE, startHubUnderTest, type HubUnderTest } from './test-support/hub-under-test.js';

// Where the hub may write: a resource group that does not exist is the Gateway's condition and Event (naming the
// group and the fix), not a crash loop; a profile of the Gateway's name that someone else owns is never adopted.
let hub: HubUnderTest;
const MISSING_GROUP = 'fleet-afd-not-created';
const TERMINAL_RECHECK_MS = 1_000;
const profilePuts = () => hub.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Cdn/profiles' });

beforeAll(async () => void (hub = await startHubUnderTest()), 120_000);
afterAll(() => hub?.stop());

async function createGateway(name: string): Promise<void> {
  await publishExport(hub.client, { cluster: 'member-1', service: name, publicAddress: `10.6.0.${name.length}` });
  await whenImported(hub, name, ['member-1']);
  await applyGatewayWithRoute(hub.client, name);
}

describe('the resource group and the profiles the hub may touch', { timeout: 60_000 }, () => {
  it('a missing resource group: a condition and Event naming the group and the fix, a slow recheck, programmed once it exists', async () => {
    const agent = await hub.startAgent({ resourceGroup: MISSING_GROUP, terminalRecheckMs: TERMINAL_RECHECK_MS });
    await createGateway('nogroup');

    const failed = await eventually(
      () => programmedOf(hub, 'nogroup'),
      (c) => c?.reason === 'AzureWriteFailed',
      30_000,
    );
    expect(failed?.status).toBe('False');
    expect(failed?.message).toContain(`ResourceGroupNotFound (HTTP 404): Resource group '${MISSING_GROUP}' could not be found`);
    expect(failed?.message).toContain(
      `resource group ${MISSING_GROUP} does not exist in subscription ${SCOPE.subscriptionId}: create it, or point --afd-resource-group at an existing one`,
    );
    const warning = await whenWarned(hub.client, 'nogroup', 'AzureWriteFailed');
    expect(warning?.note).toContain('point --afd-resource-group at an existing one');

    // Terminal: looked at again after the recheck interval, not in a hot loop (a few attempts over seconds).
    const attempts = profilePuts();
    const later = await eventually(
      () => profilePuts(),
      (n) => n >= attempts + 2,
      10_000,
    );
    expect(later).toBeGreaterThanOrEqual(attempts + 2);
    expect(later).toBeLessThanOrEqual(attempts + 8);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
    expect(hub.logs.lines.filter((l) => l.message === 'reconcile threw; retrying with backoff')).toEqual([]);

    // The operator creates the group: the next recheck programs the Gateway.
    hub.emulator.admin.createResourceGroup({ subscriptionId: SCOPE.subscriptionId, name: MISSING_GROUP });
    const programmed = await whenProgrammed(hub, 'nogroup', ['nogroup']);
    expect(programmed.metadata.finalizers).toContain(GATEWAY_FINALIZER);
    await hub.client.delete(gatewayPath('nogroup'));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'nogroup')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    await agent.stop();
  });

  it('a missing role assignment (403 on the profile write): Programmed=False naming identity, scope and role; programmed once granted', async () => {
    const agent = await hub.startAgent({ terminalRecheckMs: TERMINAL_RECHECK_MS });
    hub.emulator.admin.injectFault({ kind: 'status', status: 403, method: 'PUT', pathPattern: '/profiles/fgw-shop-denied-[0-9a-f]{12}$', count: 1_000 });
    await createGateway('denied');
    const denied = await eventually(
      () => programmedOf(hub, 'denied'),
      (c) => c?.reason === 'AzureWriteFailed',
      30_000,
    );
    expect(denied?.status).toBe('False');
    expect(denied?.message).toContain('AuthorizationFailed (HTTP 403)');
    expect(denied?.message).toContain(
      `the test identity lacks access to scope /subscriptions/${SCOPE.subscriptionId}/resourceGroups/${SCOPE.resourceGroup}: assign it the role "Fleet Gateway hub: Front Door"`,
    );
    expect((await whenWarned(hub.client, 'denied', 'AzureWriteFailed'))?.note).toBe(denied?.message);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);

    hub.emulator.admin.clearFaults();
    await whenProgrammed(hub, 'denied', ['denied']);
    await hub.client.delete(gatewayPath('denied'));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'denied')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    await agent.stop();
  });

  it('a profile of the Gateway’s name owned by another hub is never adopted: ForeignProfile naming its owner, zero writes', async () => {
    // Created while no agent runs, so the profile can be made in its name (the name depends on the UID) first.
    await publishExport(hub.client, { cluster: 'member-1', service: 'squatted', publicAddress: '10.6.0.8' });
    await applyGatewayWithRoute(hub.client, 'squatted');
    const gateway = await readGateway(hub.client, 'squatted');
    const identity = { namespace: gateway.metadata.namespace ?? '', name: gateway.metadata.name ?? '', uid: gateway.metadata.uid ?? '', generation: 0 };
    const profile = profileName(identity);
    const otherHub = `subscription/${SCOPE.subscriptionId}/cluster/other-hub`;
    await hub.clients.cdn.profiles.beginCreateAndWait(
      SCOPE.resourceGroup,
      profile,
      { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, tags: ownershipTags({ hubIdentity: otherHub, gateway: identity }) },
      { updateIntervalInMs: 5 },
    );
    const before = await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile);
    hub.emulator.admin.resetCounters();

    const agent = await hub.startAgent();
    const refused = await eventually(
      () => programmedOf(hub, 'squatted'),
      (c) => c?.reason === 'ForeignProfile',
      30_000,
    );
    expect(refused?.status).toBe('False');
    expect(refused?.message).toContain(`profile ${profile} exists but is not this Gateway's`);
    expect(refused?.message).toContain(otherHub);
    expect(refused?.message).toContain('it is never adopted, changed or deleted');
    expect((await whenWarned(hub.client, 'squatted', 'ForeignProfile'))?.note).toContain(OWNERSHIP_TAGS.hubIdentity);
    expect(armWrites(hub)).toBe(0);
    expect(await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile)).toEqual(before);
    expect((await readGateway(hub.client, 'squatted')).metadata.finalizers ?? []).toEqual([]);

    // Nothing was ever written for it, so its deletion touches nothing in Azure.
    await hub.client.delete(gatewayPath('squatted'));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'squatted')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    expect(armWrites(hub)).toBe(0);
    expect(await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile)).toEqual(before);
    expect((await gatewayEvents(hub.client, 'squatted')).filter((e) => e.type === 'Warning').map((e) => e.reason)).toEqual(['ForeignProfile']);
    // Stopped, as every test here stops its agent: one left running would program the next test's Gateways too.
    await agent.stop();
  });

  it('the AFD profile quota: the Gateway past it is Programmed=False NoResources naming the quota, nothing is written for it, and it is programmed once a place is free', async () => {
    const agent = await hub.startAgent({ profileQuota: 1, terminalRecheckMs: TERMINAL_RECHECK_MS });
    await createGateway('first');
    await whenProgrammed(hub, 'first', ['first']);
    const puts = profilePuts();

    await createGateway('second');
    const refused = await eventually(
      () => programmedOf(hub, 'second'),
      (c) => c?.reason === 'NoResources',
      30_000,
    );
    expect(refused?.status).toBe('False');
    expect(refused?.message).toBe(
      'the AFD profile quota of 1 Standard/Premium profiles per subscription is reached: 1 Gateways of this hub hold a profile and this one is number 2 in line (oldest first); nothing is written to Azure for it until a Gateway ahead of it is deleted or the quota is raised',
    );
    expect((await whenWarned(hub.client, 'second', 'ProfileQuotaExceeded'))?.note).toBe(refused?.message);
    expect(profilePuts()).toBe(puts);
    expect((await readGateway(hub.client, 'second')).metadata.finalizers ?? []).toEqual([]);
    // The Gateway ahead of it keeps being served, untouched.
    expect((await programmedOf(hub, 'first'))?.status).toBe('True');

    await hub.client.delete(gatewayPath('first'));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'first')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    await whenProgrammed(hub, 'second', ['second']);
    await hub.client.delete(gatewayPath('second'));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'second')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
    await agent.stop();
  });
});
