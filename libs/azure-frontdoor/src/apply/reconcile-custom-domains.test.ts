import { describe, expect, it } from 'vitest';
import { customDomainName, profileName } from '../plan/afd-names.js';
import { buildGateway, type BackendFixture } from '../testing/gateway-builder.js';
import { reconcile, TEST_SCOPE, useHarness } from '../testing/emulator-harness.js';

const web: BackendFixture = { name: 'web', clusters: [{ name: 'member-1' }] };
const h = useHarness();
const shop = buildGateway({
  name: 'shop',
  backends: [web],
  routes: [{ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ name: 'web' }] }] }],
});
const domainId = (model: typeof shop, host: string) =>
  `/subscriptions/${TEST_SCOPE.subscriptionId}/resourceGroups/${TEST_SCOPE.resourceGroup}/providers/Microsoft.Cdn/profiles/${profileName(model.gateway)}/customDomains/${customDomainName(host)}`;

describe('reconcile against the emulator: custom domains', () => {
  it('reports a domain pending validation with the exact TXT record, token and CNAME; validated, it is done', async () => {
    const first = await reconcile(h(), shop);
    expect(first.failures).toEqual([]);
    expect(first.programmed).toBe(true);
    const [domain] = first.customDomains;
    expect(domain).toMatchObject({
      name: customDomainName('shop.example.com'),
      hostName: 'shop.example.com',
      listeners: ['http'],
      validationState: 'Pending',
      validated: false,
    });
    const stored = await h().clients.cdn.afdCustomDomains.get(TEST_SCOPE.resourceGroup, profileName(shop.gateway), customDomainName('shop.example.com'));
    const token = stored.validationProperties?.validationToken as string;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(domain?.validationToken).toBe(token);
    expect(domain?.message).toContain(`create DNS TXT record _dnsauth.shop.example.com with value "${token}"`);
    expect(domain?.message).toContain(`a CNAME record shop.example.com -> ${first.endpointHostName}`);
    expect(first.outcome).toMatchObject({ type: 'requeue-after', reason: '1 custom domain(s) await DNS validation: shop.example.com Pending' });

    h().emulator.admin.validateCustomDomain(domainId(shop, 'shop.example.com'));
    const second = await reconcile(h(), shop);
    expect(second.writes).toBe(0);
    expect(second.customDomains.map((d) => [d.validationState, d.validated])).toEqual([['Approved', true]]);
    expect(second.outcome).toEqual({ type: 'done' });
  });

  it('an apex hostname is told to use an alias record, not a CNAME', async () => {
    const apex = buildGateway({
      name: 'apex',
      backends: [web],
      routes: [{ name: 'root', hostnames: ['example.com'], rules: [{ backends: [{ name: 'web' }] }] }],
    });
    const report = await reconcile(h(), apex);
    expect(report.customDomains[0]?.message).toContain(
      `an alias record (Azure DNS) or a flattened CNAME for the apex example.com to ${report.endpointHostName} (an apex cannot take a CNAME)`,
    );
    expect(report.customDomains[0]?.message).not.toContain('a CNAME record example.com');
  });

  it('refreshes a token that expires within a day, and status shows the new one; a fresh token is left alone', async () => {
    const model = buildGateway({
      name: 'refresh',
      backends: [web],
      routes: [{ name: 'r', hostnames: ['refresh.example.com'], rules: [{ backends: [{ name: 'web' }] }] }],
    });
    const first = await reconcile(h(), model);
    const before = first.customDomains[0]!;
    const fresh = await reconcile(h(), model);
    expect([fresh.writes, fresh.customDomains[0]?.validationToken]).toEqual([0, before.validationToken]);
    const expires = Date.parse(before.expirationDate as string);
    const due = await reconcile(h(), model, { now: () => expires - 3600_000 });
    expect(due.writes).toBe(1);
    expect(due.customDomains[0]?.validationState).toBe('Pending');
    expect(due.customDomains[0]?.validationToken).toMatch(/^[0-9a-f]{32}$/);
    expect(due.customDomains[0]?.validationToken).not.toBe(before.validationToken);
    expect(due.customDomains[0]?.message).toContain(`"${due.customDomains[0]?.validationToken}"`);
  });

  it('removing a hostname withdraws its domain; a hostname another route still uses keeps it', async () => {
    const two = (promoHosts: string[]) =>
      buildGateway({
        name: 'withdraw',
        backends: [web],
        routes: [
          { name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ name: 'web' }] }] },
          { name: 'promo', hostnames: promoHosts, rules: [{ paths: ['/promo'], backends: [{ name: 'web' }] }] },
        ],
      });
    const both = two(['shop.example.com', 'promo.example.com']);
    await reconcile(h(), both);
    const cdn = h().clients.cdn;
    const hosts = async () => {
      const names: string[] = [];
      for await (const d of cdn.afdCustomDomains.listByProfile(TEST_SCOPE.resourceGroup, profileName(both.gateway))) names.push(d.hostName ?? '');
      return names.sort();
    };
    expect(await hosts()).toEqual(['promo.example.com', 'shop.example.com']);
    const withdrawn = await reconcile(h(), two(['shop.example.com']));
    expect(withdrawn.failures).toEqual([]);
    expect(withdrawn.resources.filter((r) => r.kind === 'customDomain' && r.action === 'deleted').map((r) => r.name)).toEqual([
      customDomainName('promo.example.com'),
    ]);
    expect(await hosts()).toEqual(['shop.example.com']);
  });
});
