import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { restErrorOf } from '../testing/errors.js';
import { FAST_POLLING, RESOURCE_GROUP as RG, cdnId, startTestBed, type TestBed } from '../testing/sdk.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
  await createProfile(bed, 'fd');
  await createEndpoint(bed, 'fd', 'web');
  await createEndpoint(bed, 'fd', 'web2');
});
afterAll(() => bed.emulator.stop());

const LAST_ORIGIN = 'Cannot disable or delete the last origin when the origin group is still associated with a route or a rule';

function overrideRule(group: string) {
  return {
    order: 1,
    conditions: [
      {
        name: 'RequestMethod' as const,
        parameters: { typeName: 'DeliveryRuleRequestMethodConditionParameters' as const, operator: 'Equal' as const, matchValues: ['POST'] },
      },
    ],
    actions: [
      {
        name: 'ModifyResponseHeader' as const,
        parameters: { typeName: 'DeliveryRuleHeaderActionParameters' as const, headerAction: 'Append' as const, headerName: 'x-a', value: '1' },
      },
      {
        name: 'RouteConfigurationOverride' as const,
        parameters: {
          typeName: 'DeliveryRuleRouteConfigurationOverrideActionParameters' as const,
          originGroupOverride: { originGroup: { id: cdnId('profiles', 'fd', 'originGroups', group) }, forwardingProtocol: 'HttpOnly' as const },
        },
      },
    ],
  };
}

describe('origin groups in use keep an enabled origin (terraform-provider-azurerm #18333, #27652)', () => {
  it('a route may only reference a group that has an enabled origin', async () => {
    await createOriginGroup(bed, 'fd', 'og-empty');
    const empty = await restErrorOf(createRoute(bed, 'fd', 'web', 'r-empty', 'og-empty', { patternsToMatch: ['/empty/*'] }));
    expect([empty.statusCode, empty.code]).toEqual([400, 'BadRequest']);
    expect(empty.message).toContain('Endpoint pools must contain at least one enabled endpoint');
    expect(empty.message).toContain("'properties.originGroup'");

    await createOrigin(bed, 'fd', 'og-empty', { name: 'off', hostName: '10.0.0.1', extra: { enabledState: 'Disabled' } });
    const disabledOnly = await restErrorOf(createRoute(bed, 'fd', 'web', 'r-empty', 'og-empty', { patternsToMatch: ['/empty/*'] }));
    expect(disabledOnly.message).toContain("origin group 'og-empty' ('properties.originGroup') has no enabled origin");

    await createOrigin(bed, 'fd', 'og-empty', { name: 'on', hostName: '10.0.0.2' });
    expect((await createRoute(bed, 'fd', 'web', 'r-empty', 'og-empty', { patternsToMatch: ['/empty/*'] })).provisioningState).toBe('Succeeded');
  });

  it('refuses disabling (PUT or PATCH) and deleting the last enabled origin of a group a route uses; a second enabled origin frees the first', async () => {
    await createOriginGroup(bed, 'fd', 'og-routed');
    await createOrigin(bed, 'fd', 'og-routed', { name: 'a', hostName: '10.0.1.1' });
    await createRoute(bed, 'fd', 'web', 'r-routed', 'og-routed', { patternsToMatch: ['/routed/*'] });

    const patched = await restErrorOf(bed.cdn.afdOrigins.beginUpdateAndWait(RG, 'fd', 'og-routed', 'a', { enabledState: 'Disabled' }, FAST_POLLING));
    expect([patched.statusCode, patched.code]).toEqual([400, 'BadRequest']);
    expect(patched.message).toContain(LAST_ORIGIN);
    expect(patched.message).toContain("origin group 'og-routed' is used by routes 'r-routed'");
    const put = await restErrorOf(createOrigin(bed, 'fd', 'og-routed', { name: 'a', hostName: '10.0.1.1', extra: { enabledState: 'Disabled' } }));
    expect(put.message).toContain(LAST_ORIGIN);
    const deleted = await restErrorOf(bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og-routed', 'a', FAST_POLLING));
    expect([deleted.statusCode, deleted.message.includes(LAST_ORIGIN)]).toEqual([400, true]);
    expect((await bed.cdn.afdOrigins.get(RG, 'fd', 'og-routed', 'a')).enabledState).toBe('Enabled');

    // A disabled second origin does not count; an enabled one does.
    await createOrigin(bed, 'fd', 'og-routed', { name: 'b', hostName: '10.0.1.2', extra: { enabledState: 'Disabled' } });
    expect((await restErrorOf(bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og-routed', 'a', FAST_POLLING))).message).toContain(LAST_ORIGIN);
    await bed.cdn.afdOrigins.beginUpdateAndWait(RG, 'fd', 'og-routed', 'b', { enabledState: 'Enabled' }, FAST_POLLING);
    expect((await bed.cdn.afdOrigins.beginUpdateAndWait(RG, 'fd', 'og-routed', 'a', { enabledState: 'Disabled' }, FAST_POLLING)).enabledState).toBe('Disabled');
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og-routed', 'a', FAST_POLLING);

    // Once no route uses the group, its last origin may go.
    await bed.cdn.routes.beginDeleteAndWait(RG, 'fd', 'web', 'r-routed', FAST_POLLING);
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og-routed', 'b', FAST_POLLING);
    await bed.cdn.afdOriginGroups.beginDeleteAndWait(RG, 'fd', 'og-routed', FAST_POLLING);
  });

  it("a rule's RouteConfigurationOverride: needs an enabled origin, keeps the group's last one, and keeps the group from being deleted", async () => {
    await bed.cdn.ruleSets.create(RG, 'fd', 'rsoverride');
    await createOriginGroup(bed, 'fd', 'og-override');
    const empty = await restErrorOf(bed.cdn.rules.beginCreateAndWait(RG, 'fd', 'rsoverride', 'post', overrideRule('og-override'), FAST_POLLING));
    expect(empty.message).toContain("('properties.actions[1].parameters.originGroupOverride.originGroup') has no enabled origin");
    const missing = await restErrorOf(bed.cdn.rules.beginCreateAndWait(RG, 'fd', 'rsoverride', 'post', overrideRule('ghost'), FAST_POLLING));
    expect(missing.message).toContain("'properties.actions[1].parameters.originGroupOverride.originGroup' must reference an existing origingroups");

    await createOrigin(bed, 'fd', 'og-override', { name: 'a', hostName: '10.0.2.1' });
    await bed.cdn.rules.beginCreateAndWait(RG, 'fd', 'rsoverride', 'post', overrideRule('og-override'), FAST_POLLING);
    const disable = await restErrorOf(bed.cdn.afdOrigins.beginUpdateAndWait(RG, 'fd', 'og-override', 'a', { enabledState: 'Disabled' }, FAST_POLLING));
    expect(disable.message).toContain("rules 'post'");
    const deleteGroup = await restErrorOf(bed.cdn.afdOriginGroups.beginDeleteAndWait(RG, 'fd', 'og-override', FAST_POLLING));
    expect([deleteGroup.statusCode, deleteGroup.code]).toEqual([409, 'Conflict']);
    expect(deleteGroup.message).toContain("rules 'post' reference it");

    await bed.cdn.rules.beginDeleteAndWait(RG, 'fd', 'rsoverride', 'post', FAST_POLLING);
    await bed.cdn.afdOriginGroups.beginDeleteAndWait(RG, 'fd', 'og-override', FAST_POLLING);
  });
});

describe('route domains', () => {
  it('the first creation may leave a route without a domain; an update may not (terraform-provider-azurerm #18844, #22924)', async () => {
    await createOriginGroup(bed, 'fd', 'og-domains');
    await createOrigin(bed, 'fd', 'og-domains', { name: 'a', hostName: '10.0.3.1' });
    const bare = await createRoute(bed, 'fd', 'web', 'r-bare', 'og-domains', { linkToDefaultDomain: 'Disabled', patternsToMatch: ['/bare/*'] });
    expect(bare.provisioningState).toBe('Succeeded');
    const update = await restErrorOf(bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'web', 'r-bare', { patternsToMatch: ['/bare2/*'] }, FAST_POLLING));
    expect([update.statusCode, update.code]).toEqual([400, 'BadRequest']);
    expect(update.message).toContain("must be associated with at least one domain: set 'properties.linkToDefaultDomain' to 'Enabled'");

    await createRoute(bed, 'fd', 'web', 'r-linked', 'og-domains', { patternsToMatch: ['/linked/*'] });
    const unlink = await restErrorOf(bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'web', 'r-linked', { linkToDefaultDomain: 'Disabled' }, FAST_POLLING));
    expect(unlink.statusCode).toBe(400);
    expect((await bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'web', 'r-bare', { linkToDefaultDomain: 'Enabled' }, FAST_POLLING)).linkToDefaultDomain).toBe(
      'Enabled',
    );
  });

  it('a (custom domain, pattern, protocol) belongs to one route across the endpoints of a profile (Azure/bicep#13502; A49)', async () => {
    await createOriginGroup(bed, 'fd', 'og-custom');
    await createOrigin(bed, 'fd', 'og-custom', { name: 'a', hostName: '10.0.4.1' });
    await bed.cdn.afdCustomDomains.beginCreateAndWait(
      RG,
      'fd',
      'shop',
      { hostName: 'shop.contoso.example', tlsSettings: { certificateType: 'ManagedCertificate' } },
      FAST_POLLING,
    );
    const shop = {
      customDomains: [{ id: cdnId('profiles', 'fd', 'customDomains', 'shop') }],
      linkToDefaultDomain: 'Disabled' as const,
      patternsToMatch: ['/*'],
    };
    await createRoute(bed, 'fd', 'web', 'r-shop', 'og-custom', shop);
    const twin = await restErrorOf(createRoute(bed, 'fd', 'web2', 'r-shop', 'og-custom', shop));
    expect([twin.statusCode, twin.code]).toEqual([400, 'BadRequest']);
    expect(twin.message).toBe(
      'The route domains, paths and protocols configuration has a conflict. More information: Domain: shop, Path pattern: /*, Protocol: Http ' +
        'cannot be added to Route r-shop as this combination already exists in Endpoint web, Route r-shop.',
    );
    expect((await createRoute(bed, 'fd', 'web2', 'r-shop', 'og-custom', { ...shop, patternsToMatch: ['/web2/*'] })).provisioningState).toBe('Succeeded');
  });
});
