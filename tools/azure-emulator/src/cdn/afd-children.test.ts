import type { Rule } from '@azure/arm-cdn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { restErrorOf } from '../testing/errors.js';
import { FAST_POLLING, RESOURCE_GROUP, collect, SUBSCRIPTION, cdnId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
  await createProfile(bed, 'fd');
});
afterAll(() => bed.emulator.stop());

describe('AFD endpoints', () => {
  it('create, read, update, list, delete; host name <name>-<hash>.z01.azurefd.net', async () => {
    const hostName = await createEndpoint(bed, 'fd', 'web');
    expect(hostName).toMatch(/^web-[a-z0-9]{16}\.z01\.azurefd\.net$/);
    const updated = await bed.cdn.afdEndpoints.beginUpdateAndWait(RG, 'fd', 'web', { enabledState: 'Disabled' }, FAST_POLLING);
    expect(updated.enabledState).toBe('Disabled');
    expect(updated.hostName).toBe(hostName);
    expect((await bed.cdn.afdEndpoints.get(RG, 'fd', 'WEB')).location).toBe('global');
    expect((await collect(bed.cdn.afdEndpoints.listByProfile(RG, 'fd'))).map((e) => e.name)).toContain('web');
    await bed.cdn.afdEndpoints.beginDeleteAndWait(RG, 'fd', 'web', FAST_POLLING);
    expect((await restErrorOf(bed.cdn.afdEndpoints.get(RG, 'fd', 'web'))).statusCode).toBe(404);
  });
});

describe('AFD origin groups and origins', () => {
  it('create, read, update, list, delete', async () => {
    await createOriginGroup(bed, 'fd', 'og', '/healthz');
    const group = await bed.cdn.afdOriginGroups.beginUpdateAndWait(RG, 'fd', 'og', { sessionAffinityState: 'Disabled' }, FAST_POLLING);
    expect(group.healthProbeSettings?.probePath).toBe('/healthz');
    expect(group.profileName).toBe('fd');
    expect((await bed.cdn.afdOriginGroups.get(RG, 'fd', 'OG')).sessionAffinityState).toBe('Disabled');
    const origin = await createOrigin(bed, 'fd', 'og', { name: 'o1', hostName: '10.0.0.1', weight: 100 });
    expect(origin.httpsPort).toBe(443);
    expect(origin.originGroupName).toBe('og');
    const changed = await bed.cdn.afdOrigins.beginUpdateAndWait(RG, 'fd', 'og', 'o1', { weight: 300 }, FAST_POLLING);
    expect(changed.weight).toBe(300);
    expect(changed.hostName).toBe('10.0.0.1');
    expect((await bed.cdn.afdOrigins.get(RG, 'fd', 'og', 'o1')).weight).toBe(300);
    expect((await collect(bed.cdn.afdOrigins.listByOriginGroup(RG, 'fd', 'og'))).map((o) => o.name)).toEqual(['o1']);
    expect((await collect(bed.cdn.afdOriginGroups.listByProfile(RG, 'fd'))).map((g) => g.name)).toContain('og');
    await bed.cdn.afdOrigins.beginDeleteAndWait(RG, 'fd', 'og', 'o1', FAST_POLLING);
    await bed.cdn.afdOriginGroups.beginDeleteAndWait(RG, 'fd', 'og', FAST_POLLING);
    expect((await restErrorOf(bed.cdn.afdOriginGroups.get(RG, 'fd', 'og'))).code).toBe('ResourceNotFound');
  });

  it('answers ParentResourceNotFound for an origin of a missing group', async () => {
    const error = await restErrorOf(bed.cdn.afdOrigins.get(RG, 'fd', 'nope', 'o1'));
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('ParentResourceNotFound');
  });

  it('rejects an origin weight outside 1..1000 naming the field', async () => {
    await createOriginGroup(bed, 'fd', 'og-weights');
    const error = await restErrorOf(createOrigin(bed, 'fd', 'og-weights', { name: 'heavy', hostName: 'a.example', weight: 5000 }));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("'properties.weight' must be <= 1000");
  });

  it('refuses Private Link origins on a Standard profile', async () => {
    await createProfile(bed, 'fd-standard', 'Standard_AzureFrontDoor');
    await createOriginGroup(bed, 'fd-standard', 'og');
    const error = await restErrorOf(
      createOrigin(bed, 'fd-standard', 'og', {
        name: 'private',
        hostName: '10.0.0.9',
        extra: {
          sharedPrivateLinkResource: {
            privateLink: { id: '/subscriptions/x/resourceGroups/y/providers/Microsoft.Network/privateLinkServices/z' },
            privateLinkLocation: 'eastus',
            requestMessage: 'hi',
          },
        },
      }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain('requires the Premium_AzureFrontDoor SKU');
  });
});

describe('AFD routes', () => {
  beforeAll(async () => {
    await createEndpoint(bed, 'fd', 'api');
    await createOriginGroup(bed, 'fd', 'og-api');
    await createOrigin(bed, 'fd', 'og-api', { name: 'api', hostName: '10.0.0.5' });
  });

  it('create, read, update, list, delete', async () => {
    const route = await createRoute(bed, 'fd', 'api', 'r-all', 'og-api');
    expect(route.provisioningState).toBe('Succeeded');
    expect(route.httpsRedirect).toBe('Disabled');
    expect(route.endpointName).toBe('api');
    const updated = await bed.cdn.routes.beginUpdateAndWait(RG, 'fd', 'api', 'r-all', { patternsToMatch: ['/v1/*'] }, FAST_POLLING);
    expect(updated.patternsToMatch).toEqual(['/v1/*']);
    expect(updated.originGroup?.id).toBe(cdnId('profiles', 'fd', 'originGroups', 'og-api'));
    expect((await bed.cdn.routes.get(RG, 'fd', 'api', 'r-all')).patternsToMatch).toEqual(['/v1/*']);
    expect((await collect(bed.cdn.routes.listByEndpoint(RG, 'fd', 'api'))).map((r) => r.name)).toEqual(['r-all']);
    await bed.cdn.routes.beginDeleteAndWait(RG, 'fd', 'api', 'r-all', FAST_POLLING);
    expect((await restErrorOf(bed.cdn.routes.get(RG, 'fd', 'api', 'r-all'))).statusCode).toBe(404);
  });

  it('answers 400 BadRequest for a second route on the same domain, pattern and protocol', async () => {
    await createRoute(bed, 'fd', 'api', 'first', 'og-api', { patternsToMatch: ['/shop/*'], supportedProtocols: ['Https'] });
    const error = await restErrorOf(
      createRoute(bed, 'fd', 'api', 'second', 'og-api', { patternsToMatch: ['/SHOP/*', '/x'], supportedProtocols: ['Http', 'Https'] }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('BadRequest');
    expect(error.message).toContain('The route domains, paths and protocols configuration has a conflict.');
    expect(error.message).toContain('cannot be added to Route second as this combination already exists in Endpoint api, Route first.');
    const disjoint = await createRoute(bed, 'fd', 'api', 'third', 'og-api', { patternsToMatch: ['/shop/*'], supportedProtocols: ['Http'] });
    expect(disjoint.provisioningState).toBe('Succeeded');
  });

  it('refuses a pattern with * elsewhere than after the final /', async () => {
    const error = await restErrorOf(createRoute(bed, 'fd', 'api', 'starry', 'og-api', { patternsToMatch: ['/a*b'] }));
    expect(error.message).toContain("'properties.patternsToMatch[0]' may contain * only as the last character");
  });

  it('refuses a reference to a missing origin group, and deleting a group a route uses', async () => {
    const missing = await restErrorOf(
      bed.cdn.routes.beginCreateAndWait(RG, 'fd', 'api', 'dangling', { originGroup: { id: cdnId('profiles', 'fd', 'originGroups', 'ghost') } }, FAST_POLLING),
    );
    expect(missing.message).toContain("'properties.originGroup' must reference an existing origingroups");
    const inUse = await restErrorOf(bed.cdn.afdOriginGroups.beginDeleteAndWait(RG, 'fd', 'og-api', FAST_POLLING));
    expect(inUse.statusCode).toBe(409);
  });
});

describe('AFD rule sets and rules', () => {
  it('rule set PUT is synchronous and takes no body; rules are long-running', async () => {
    const ruleSet = await bed.cdn.ruleSets.create(RG, 'fd', 'rules1');
    expect(ruleSet.provisioningState).toBe('Succeeded');
    const rule = await bed.cdn.rules.beginCreateAndWait(
      RG,
      'fd',
      'rules1',
      'addHeader',
      {
        order: 1,
        actions: [
          {
            name: 'ModifyResponseHeader',
            parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction: 'Append', headerName: 'x-fleet', value: '1' },
          },
        ],
      },
      FAST_POLLING,
    );
    expect(rule.matchProcessingBehavior).toBe('Continue');
    expect([ruleSet.profileName, rule.ruleSetName]).toEqual(['fd', 'rules1']);
    const updated = await bed.cdn.rules.beginUpdateAndWait(RG, 'fd', 'rules1', 'addHeader', { order: 2 }, FAST_POLLING);
    expect(updated.order).toBe(2);
    expect((await bed.cdn.rules.get(RG, 'fd', 'rules1', 'addHeader')).order).toBe(2);
    expect((await bed.cdn.ruleSets.get(RG, 'fd', 'rules1')).provisioningState).toBe('Succeeded');
    expect((await collect(bed.cdn.rules.listByRuleSet(RG, 'fd', 'rules1'))).map((r) => r.name)).toEqual(['addHeader']);
    expect((await collect(bed.cdn.ruleSets.listByProfile(RG, 'fd'))).map((r) => r.name)).toContain('rules1');
    await bed.cdn.rules.beginDeleteAndWait(RG, 'fd', 'rules1', 'addHeader', FAST_POLLING);
    await bed.cdn.ruleSets.beginDeleteAndWait(RG, 'fd', 'rules1', FAST_POLLING);
    expect((await restErrorOf(bed.cdn.ruleSets.get(RG, 'fd', 'rules1'))).statusCode).toBe(404);
  });

  /** The error a rule PUT into a new rule set answers. */
  async function refusedRule(ruleSet: string, rule: Rule) {
    await bed.cdn.ruleSets.create(RG, 'fd', ruleSet);
    return restErrorOf(bed.cdn.rules.beginCreateAndWait(RG, 'fd', ruleSet, 'refused', rule, FAST_POLLING));
  }

  it('validates a rule action against its discriminated subtype', async () => {
    const error = await refusedRule('rules2', {
      order: 1,
      actions: [{ name: 'UrlRedirect', parameters: { typeName: 'DeliveryRuleUrlRedirectActionParameters', redirectType: 'Sideways' as never } }],
    });
    expect(error.message).toContain("'properties.actions[0].parameters.redirectType' must be one of");
  });

  it('refuses a RegEx match value that is not a regular expression, naming the field and the value (A65)', async () => {
    const error = await refusedRule('rules3', {
      order: 1,
      conditions: [
        { name: 'QueryString', parameters: { typeName: 'DeliveryRuleQueryStringConditionParameters', operator: 'RegEx', matchValues: ['(unclosed'] } },
      ],
      actions: [{ name: 'ModifyResponseHeader', parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction: 'Delete', headerName: 'server' } }],
    });
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("'properties.conditions[0].parameters.matchValues'");
    expect(error.message).toContain('(unclosed');
  });
});

describe('AFD custom domains and secrets', () => {
  it('custom domain stays Pending until the admin API validates it', async () => {
    const domain = await bed.cdn.afdCustomDomains.beginCreateAndWait(
      RG,
      'fd',
      'shop',
      { hostName: 'shop.contoso.example', tlsSettings: { certificateType: 'ManagedCertificate', minimumTlsVersion: 'TLS12' } },
      FAST_POLLING,
    );
    expect(domain.domainValidationState).toBe('Pending');
    expect(domain.validationProperties?.validationToken).toMatch(/^[0-9a-f]{32}$/);
    bed.emulator.admin.validateCustomDomain(cdnId('profiles', 'fd', 'customDomains', 'shop'));
    expect((await bed.cdn.afdCustomDomains.get(RG, 'fd', 'shop')).domainValidationState).toBe('Approved');
    const updated = await bed.cdn.afdCustomDomains.beginUpdateAndWait(
      RG,
      'fd',
      'shop',
      { tlsSettings: { certificateType: 'ManagedCertificate', minimumTlsVersion: 'TLS12' } },
      FAST_POLLING,
    );
    expect(updated.tlsSettings?.minimumTlsVersion).toBe('TLS12');
    expect((await collect(bed.cdn.afdCustomDomains.listByProfile(RG, 'fd'))).map((d) => d.hostName)).toContain('shop.contoso.example');
    await bed.cdn.afdCustomDomains.beginDeleteAndWait(RG, 'fd', 'shop', FAST_POLLING);
  });

  it('secrets: create, read, list, delete', async () => {
    const secret = await bed.cdn.secrets.beginCreateAndWait(
      RG,
      'fd',
      'cert1',
      {
        parameters: { type: 'CustomerCertificate', secretSource: { id: '/subscriptions/x/resourceGroups/y/providers/Microsoft.KeyVault/vaults/v/secrets/s' } },
      },
      FAST_POLLING,
    );
    expect(secret.provisioningState).toBe('Succeeded');
    expect((await bed.cdn.secrets.get(RG, 'fd', 'cert1')).parameters?.type).toBe('CustomerCertificate');
    expect((await collect(bed.cdn.secrets.listByProfile(RG, 'fd'))).map((s) => s.name)).toEqual(['cert1']);
    await bed.cdn.secrets.beginDeleteAndWait(RG, 'fd', 'cert1', FAST_POLLING);
    expect((await restErrorOf(bed.cdn.secrets.get(RG, 'fd', 'cert1'))).statusCode).toBe(404);
  });
});

describe('AFD security policies', () => {
  it('reference an existing WAF policy of the profile SKU', async () => {
    await createEndpoint(bed, 'fd', 'secure');
    const endpointRef = { domains: [{ id: cdnId('profiles', 'fd', 'afdEndpoints', 'secure') }], patternsToMatch: ['/*'] };
    const missing = await restErrorOf(
      bed.cdn.securityPolicies.beginCreateAndWait(
        RG,
        'fd',
        'sp',
        {
          parameters: {
            type: 'WebApplicationFirewall',
            wafPolicy: { id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RG}/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/nowaf` },
            associations: [endpointRef],
          } as never,
        },
        FAST_POLLING,
      ),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.message).toContain('must reference an existing Front Door WAF policy');

    const standardWaf = bed.emulator.admin.createWafPolicy({
      subscriptionId: SUBSCRIPTION,
      resourceGroup: RG,
      name: 'wafStandard',
      sku: 'Standard_AzureFrontDoor',
    });
    const mismatch = await restErrorOf(
      bed.cdn.securityPolicies.beginCreateAndWait(
        RG,
        'fd',
        'sp',
        { parameters: { type: 'WebApplicationFirewall', wafPolicy: { id: standardWaf }, associations: [endpointRef] } as never },
        FAST_POLLING,
      ),
    );
    expect(mismatch.message).toContain('they must match');

    const premiumWaf = bed.emulator.admin.createWafPolicy({
      subscriptionId: SUBSCRIPTION,
      resourceGroup: RG,
      name: 'wafPremium',
      sku: 'Premium_AzureFrontDoor',
    });
    const created = await bed.cdn.securityPolicies.beginCreateAndWait(
      RG,
      'fd',
      'sp',
      { parameters: { type: 'WebApplicationFirewall', wafPolicy: { id: premiumWaf }, associations: [endpointRef] } as never },
      FAST_POLLING,
    );
    expect(created.provisioningState).toBe('Succeeded');
    const patched = await bed.cdn.securityPolicies.beginPatchAndWait(
      RG,
      'fd',
      'sp',
      {
        parameters: { type: 'WebApplicationFirewall', wafPolicy: { id: premiumWaf }, associations: [{ ...endpointRef, patternsToMatch: ['/api/*'] }] } as never,
      },
      FAST_POLLING,
    );
    expect(JSON.stringify(patched.parameters)).toContain('/api/*');
    expect(JSON.stringify((await bed.cdn.securityPolicies.get(RG, 'fd', 'sp')).parameters)).toContain('/api/*');
    expect((await collect(bed.cdn.securityPolicies.listByProfile(RG, 'fd'))).map((p) => p.name)).toEqual(['sp']);

    // A WAF policy is in one security policy per profile; another WAF policy may protect another domain.
    await createEndpoint(bed, 'fd', 'secure-2');
    const otherRef = { domains: [{ id: cdnId('profiles', 'fd', 'afdEndpoints', 'secure-2') }], patternsToMatch: ['/*'] };
    const shared = await restErrorOf(
      bed.cdn.securityPolicies.beginCreateAndWait(
        RG,
        'fd',
        'sp2',
        { parameters: { type: 'WebApplicationFirewall', wafPolicy: { id: premiumWaf }, associations: [otherRef] } as never },
        FAST_POLLING,
      ),
    );
    expect([shared.statusCode, shared.code, shared.message]).toEqual([
      400,
      'BadRequest',
      "WAF policy 'wafPremium' is already associated with security policy 'sp' of this profile; a WAF policy can be in one security policy per profile.",
    ]);
    const secondWaf = bed.emulator.admin.createWafPolicy({
      subscriptionId: SUBSCRIPTION,
      resourceGroup: RG,
      name: 'wafPremium2',
      sku: 'Premium_AzureFrontDoor',
    });
    const second = await bed.cdn.securityPolicies.beginCreateAndWait(
      RG,
      'fd',
      'sp2',
      { parameters: { type: 'WebApplicationFirewall', wafPolicy: { id: secondWaf }, associations: [otherRef] } as never },
      FAST_POLLING,
    );
    expect(second.provisioningState).toBe('Succeeded');
    await bed.cdn.securityPolicies.beginDeleteAndWait(RG, 'fd', 'sp2', FAST_POLLING);
    await bed.cdn.securityPolicies.beginDeleteAndWait(RG, 'fd', 'sp', FAST_POLLING);
  });
});

describe('cascade delete and limits', () => {
  it('deleting a profile deletes every child', async () => {
    await createProfile(bed, 'fd-doomed');
    await createEndpoint(bed, 'fd-doomed', 'e');
    await createOriginGroup(bed, 'fd-doomed', 'og');
    await createOrigin(bed, 'fd-doomed', 'og', { name: 'o', hostName: 'example.org' });
    await createRoute(bed, 'fd-doomed', 'e', 'r', 'og');
    await bed.cdn.profiles.beginDeleteAndWait(RG, 'fd-doomed', FAST_POLLING);
    expect((await restErrorOf(bed.cdn.afdOrigins.get(RG, 'fd-doomed', 'og', 'o'))).code).toBe('ParentResourceNotFound');
    await createProfile(bed, 'fd-doomed');
    expect(await collect(bed.cdn.afdOriginGroups.listByProfile(RG, 'fd-doomed'))).toEqual([]);
    expect(await collect(bed.cdn.afdEndpoints.listByProfile(RG, 'fd-doomed'))).toEqual([]);
  });
});
