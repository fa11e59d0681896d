import { describe, expect, it } from 'vitest';
import { profileName } from '../plan/afd-names.js';
import { deleteFrontDoor } from './delete-front-door.js';
import { ownershipTags } from '../plan/ownership.js';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { HUB_IDENTITY, reconcile, useHarness, TEST_SCOPE, writesCounted } from '../testing/emulator-harness.js';

const fixture: GatewayFixture = {
  sku: 'Standard_AzureFrontDoor',
  backends: [{ name: 'web', clusters: [{ name: 'member-1' }] }],
  routes: [{ name: 'shop', rules: [{ backends: [{ name: 'web' }] }] }],
};
const model = buildGateway(fixture);
const profile = profileName(model.gateway);
const rg = TEST_SCOPE.resourceGroup;
const lro = { updateIntervalInMs: 5 };
const wafId = (name: string) =>
  `/subscriptions/${TEST_SCOPE.subscriptionId}/resourceGroups/waf/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/${name}`;

const h = useHarness();

describe('what reconcile never touches', () => {
  it('a profile with our name but without our tags is refused with no write', async () => {
    await h().clients.cdn.profiles.beginCreateAndWait(
      rg,
      profile,
      { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, tags: { owner: 'someone' } },
      lro,
    );
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), model);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(report.reason).toBe('ForeignProfile');
    expect(report.outcome.type).toBe('terminal');
    expect(report.message).toBe(
      `profile ${profile} exists but is not this Gateway's: it carries none of the Fleet Gateway ownership tags; it is never adopted, changed or deleted`,
    );
  });

  it("another hub's profile is refused too, naming the tag that differs", async () => {
    const tags = { ...ownershipTags({ hubIdentity: 'another-hub', gateway: model.gateway }) };
    await h().clients.cdn.profiles.beginCreateAndWait(rg, profile, { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, tags }, lro);
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), model);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(report.message).toContain('fleet-networking-hub-identity is "another-hub"');
  });

  it('an untagged endpoint (and its route) inside our profile are left alone', async () => {
    await reconcile(h(), model);
    await h().clients.cdn.afdEndpoints.beginCreateAndWait(rg, profile, 'someone-elses', { location: 'global' }, lro);
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), model);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(report.resources.some((r) => r.name === 'someone-elses')).toBe(false);
    await expect(h().clients.cdn.afdEndpoints.get(rg, profile, 'someone-elses')).resolves.toMatchObject({ name: 'someone-elses' });
  });

  it('a SKU change of a programmed Gateway is refused with a clear cause and no write', async () => {
    await reconcile(h(), model);
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), buildGateway({ ...fixture, sku: 'Premium_AzureFrontDoor' }));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(report.reason).toBe('SkuImmutable');
    expect(report.message).toContain(
      `profile ${profile} is Standard_AzureFrontDoor and the Gateway asks for Premium_AzureFrontDoor; AFD cannot change a profile's SKU in place`,
    );
    expect(report.endpointHostName).toMatch(/azurefd\.net$/);
  });

  it('capacity exceeded: no ARM request at all, the message names dimension, value and limit', async () => {
    const report = await reconcile(h(), model, { capacityLimits: { origins: 0 } });
    expect(h().emulator.admin.requestTotal()).toBe(0);
    expect(report.reason).toBe('CapacityExceeded');
    expect(report.message).toBe('CapacityExceeded: origins per profile would be 1; the limit for Standard_AzureFrontDoor is 0');
  });
});

describe('deleting a Gateway', () => {
  const remove = () => deleteFrontDoor(h().clients, model.gateway, { hubIdentity: HUB_IDENTITY, scope: TEST_SCOPE, pollIntervalMs: 5 });

  it("never deletes a profile of our name that is not this Gateway's (no tags, another hub, an older Gateway of the name)", async () => {
    for (const tags of [
      undefined,
      ownershipTags({ hubIdentity: 'another-hub', gateway: model.gateway }),
      ownershipTags({ hubIdentity: HUB_IDENTITY, gateway: { ...model.gateway, uid: 'older-uid' } }),
    ]) {
      await h().clients.cdn.profiles.beginCreateAndWait(
        rg,
        profile,
        { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, ...(tags ? { tags } : {}) },
        lro,
      );
      h().emulator.admin.resetCounters();
      const report = await remove();
      expect(writesCounted(h().emulator)).toBe(0);
      expect(report).toMatchObject({ result: 'refused', outcome: { type: 'terminal' } });
      expect(report.message).toContain(`profile ${profile} is not this Gateway's`);
    }
  });

  it('refuses while the profile holds an endpoint without our tags, which the profile would take with it', async () => {
    await reconcile(h(), model);
    await h().clients.cdn.afdEndpoints.beginCreateAndWait(rg, profile, 'someone-elses', { location: 'global' }, lro);
    h().emulator.admin.resetCounters();
    const report = await remove();
    expect(writesCounted(h().emulator)).toBe(0);
    expect(report.result).toBe('refused');
    expect(report.message).toBe(
      `profile ${profile} holds endpoint(s) someone-elses without this Gateway's ownership tags; deleting the profile would delete them too, so nothing was deleted (move or delete them, then the profile goes)`,
    );
    await h().clients.cdn.afdEndpoints.beginDeleteAndWait(rg, profile, 'someone-elses', lro);
    expect((await remove()).result).toBe('deleted');
  });

  it('a refused DELETE is failed, carrying ARM’s classified failure so the caller can name the missing access', async () => {
    await reconcile(h(), model);
    h().emulator.admin.injectFault({ kind: 'status', status: 403, method: 'DELETE', pathPattern: `/profiles/${profile}$` });
    const report = await remove();
    expect(report).toMatchObject({ result: 'failed', outcome: { type: 'terminal' } });
    expect(report.failure).toMatchObject({ class: 'terminal', category: 'authorization', status: 403, code: 'AuthorizationFailed' });
    expect(report.message).toMatch(new RegExp(`^deleting profile ${profile} failed: AuthorizationFailed \\(HTTP 403\\): `));
    expect((await remove()).result).toBe('deleted');
  });
});

describe('WAF policy association', () => {
  it('attaches an existing policy of the same SKU, and detaching removes only the association', async () => {
    const id = h().emulator.admin.createWafPolicy({
      subscriptionId: TEST_SCOPE.subscriptionId,
      resourceGroup: 'waf',
      name: 'edgePolicy',
      sku: 'Standard_AzureFrontDoor',
    });
    const attached = await reconcile(h(), buildGateway({ ...fixture, wafPolicyId: id }));
    expect(attached.failures).toEqual([]);
    expect(attached.resources.find((r) => r.kind === 'securityPolicy')?.action).toBe('created');
    expect(h().emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Network/frontDoorWebApplicationFirewallPolicies' })).toBe(1);

    h().emulator.admin.resetCounters();
    const detached = await reconcile(h(), model);
    expect(detached.resources.filter((r) => r.action !== 'unchanged').map((r) => `${r.action} ${r.kind}`)).toEqual(['deleted securityPolicy']);
    expect(writesCounted(h().emulator)).toBe(1);
    expect(writesCounted(h().emulator, 'Microsoft.Network/frontDoorWebApplicationFirewallPolicies')).toBe(0);
    await expect(h().clients.wafPolicies(TEST_SCOPE.subscriptionId).get('waf', 'edgePolicy')).resolves.toMatchObject({ name: 'edgePolicy' });
  });

  it('a missing policy, or one of another SKU, is refused before any write', async () => {
    const missing = await reconcile(h(), buildGateway({ ...fixture, wafPolicyId: wafId('nothere') }));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(missing.reason).toBe('WafPolicyNotFound');
    expect(missing.message).toBe(
      `annotation "networking.fleet.azure.com/afd-waf-policy-id" names WAF policy "${wafId('nothere')}", which does not exist; ` +
        'expected the id of an existing Front Door WAF policy (the hub associates a policy, it never creates one); nothing was changed',
    );

    const premium = h().emulator.admin.createWafPolicy({
      subscriptionId: TEST_SCOPE.subscriptionId,
      resourceGroup: 'waf',
      name: 'premiumPolicy',
      sku: 'Premium_AzureFrontDoor',
    });
    const mismatch = await reconcile(h(), buildGateway({ ...fixture, wafPolicyId: premium }));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(mismatch.reason).toBe('WafPolicySkuMismatch');
    expect(mismatch.message).toBe(
      `annotation "networking.fleet.azure.com/afd-waf-policy-id" names WAF policy "${premium}", which has SKU Premium_AzureFrontDoor; ` +
        "expected a policy of the profile's SKU Standard_AzureFrontDoor (AFD only associates a WAF policy of the same SKU); nothing was changed",
    );
  });
});

describe('hub identity', () => {
  it('is written into the tags of the profile and the endpoint', async () => {
    await reconcile(h(), model);
    const [p, e] = await Promise.all([h().clients.cdn.profiles.get(rg, profile), h().clients.cdn.afdEndpoints.listByProfile(rg, profile).next()]);
    expect(p.tags?.['fleet-networking-hub-identity']).toBe(HUB_IDENTITY);
    expect(e.value?.tags?.['fleet-networking-gateway-uid']).toBe(model.gateway.uid);
  });
});
