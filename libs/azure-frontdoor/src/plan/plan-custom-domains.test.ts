import { describe, expect, it } from 'vitest';
import { customDomainName } from './afd-names.js';
import { routeBody, securityPolicyBody } from '../diff/arm-bodies.js';
import { diffFrontDoor } from '../diff/diff.js';
import { planFrontDoor } from './plan-front-door.js';
import { buildGateway, type BackendFixture } from '../testing/gateway-builder.js';
import { observedFromGraph } from '../testing/observed-from-graph.js';

const options = { hubIdentity: 'hub-1' };
const scope = { subscriptionId: 'sub', resourceGroup: 'rg' };
const web: BackendFixture = { name: 'web', clusters: [{ name: 'member-1' }] };
const api: BackendFixture = { name: 'api', clusters: [{ name: 'member-1' }] };
const WAF = '/subscriptions/sub/resourceGroups/waf/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/edge';

describe('custom domains (plan)', () => {
  it('a route hostname becomes one custom domain with a managed TLS 1.2 certificate, served by routes that do not link the default domain', () => {
    const plan = planFrontDoor(
      buildGateway({ backends: [web], routes: [{ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ name: 'web' }] }] }] }),
      options,
    );
    expect(plan.problems).toEqual([]);
    const name = customDomainName('shop.example.com');
    expect(name).toMatch(/^cd-shop-example-com-[0-9a-f]{12}$/);
    expect(plan.graph.customDomains.map((d) => [d.ref.customDomain, d.hostName, d.minimumTlsVersion])).toEqual([[name, 'shop.example.com', 'TLS12']]);
    expect(plan.graph.routes.map((r) => r.customDomains)).toEqual([[name]]);
    const body = routeBody(plan.graph.routes[0]!, scope);
    expect(body.linkToDefaultDomain).toBe('Disabled');
    expect(body.customDomains).toEqual([
      { id: `/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Cdn/profiles/${plan.graph.profile.ref.profile}/customDomains/${name}` },
    ]);
  });

  it('a hostname no listener names comes from the routes naming it: they, not the routes inheriting `*`, own its domain', () => {
    const plan = planFrontDoor(
      buildGateway({
        backends: [web],
        routes: [
          { name: 'cart', hostnames: ['shop.example.com'], rules: [{ paths: ['/cart'], backends: [{ name: 'web' }] }] },
          { name: 'plain', rules: [{ backends: [{ name: 'web' }] }] },
        ],
      }),
      options,
    );
    const [domain] = plan.graph.customDomains;
    expect(domain?.provenance.filter((s) => s.kind === 'HTTPRoute').map((s) => s.name)).toEqual(['cart']);
    expect(domain?.provenance.filter((s) => s.kind === 'Gateway').map((s) => s.section)).toEqual(['http']);
  });

  it('one domain per distinct hostname, however many routes name it; routes without hostnames stay on the default domain', () => {
    const plan = planFrontDoor(
      buildGateway({
        backends: [web, api],
        routes: [
          { name: 'cart', hostnames: ['shop.example.com'], rules: [{ paths: ['/cart'], backends: [{ name: 'api' }] }] },
          { name: 'shop', hostnames: ['shop.example.com', 'www.example.com'], rules: [{ backends: [{ name: 'web' }] }] },
          { name: 'plain', rules: [{ backends: [{ name: 'web' }] }] },
        ],
      }),
      options,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.graph.customDomains.map((d) => d.hostName).sort()).toEqual(['shop.example.com', 'www.example.com']);
    const byDomain = (domain: string[]) =>
      plan.graph.routes
        .filter((r) => JSON.stringify(r.customDomains) === JSON.stringify(domain))
        .flatMap((r) => r.patterns)
        .sort();
    expect(byDomain([customDomainName('shop.example.com')])).toEqual(['/', '/*', '/cart', '/cart/*']);
    expect(byDomain([customDomainName('www.example.com')])).toEqual(['/', '/*']);
    expect(byDomain([])).toEqual(['/', '/*']);
  });

  it('a wildcard hostname is a wildcard custom domain with a valid deterministic name', () => {
    const model = buildGateway({ backends: [web], routes: [{ name: 'apps', hostnames: ['*.apps.example.com'], rules: [{ backends: [{ name: 'web' }] }] }] });
    const first = planFrontDoor(model, options);
    expect(first.problems).toEqual([]);
    expect(first.graph.customDomains.map((d) => d.hostName)).toEqual(['*.apps.example.com']);
    expect(planFrontDoor(model, options).graph.customDomains).toEqual(first.graph.customDomains);
    expect(customDomainName('*.apps.example.com')).not.toBe(customDomainName('apps.example.com'));
  });

  it('the WAF security policy associates the default domain and every custom domain', () => {
    const plan = planFrontDoor(
      buildGateway({
        wafPolicyId: WAF,
        backends: [web],
        routes: [{ name: 'shop', hostnames: ['shop.example.com', 'www.example.com'], rules: [{ backends: [{ name: 'web' }] }] }],
      }),
      options,
    );
    const policy = plan.graph.securityPolicy!;
    expect(policy.customDomains).toEqual(plan.graph.customDomains.map((d) => d.ref.customDomain));
    const domains = (securityPolicyBody(policy, scope).parameters as { associations: { domains: { id: string }[] }[] }).associations[0]!.domains.map((d) =>
      d.id.split('/').slice(-2).join('/'),
    );
    expect(domains).toEqual([
      `afdEndpoints/${plan.graph.endpoint.ref.endpoint}`,
      `customDomains/${customDomainName('shop.example.com')}`,
      `customDomains/${customDomainName('www.example.com')}`,
    ]);
  });
});

describe('custom domains (diff)', () => {
  const both = buildGateway({
    backends: [web],
    routes: [
      { name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ name: 'web' }] }] },
      { name: 'promo', hostnames: ['shop.example.com', 'promo.example.com'], rules: [{ paths: ['/promo'], backends: [{ name: 'web' }] }] },
    ],
  });
  const programmed = observedFromGraph(planFrontDoor(both, options).graph, scope);

  it('nothing to write once the graph is programmed (validation state and token are AFD-set)', () => {
    expect(diffFrontDoor(planFrontDoor(both, options).graph, programmed, scope).operations).toEqual([]);
  });

  it('removing a hostname deletes its domain after the routes that serve it; a hostname another route still uses keeps its domain', () => {
    const withoutPromoHost = buildGateway({
      backends: [web],
      routes: [
        { name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ name: 'web' }] }] },
        { name: 'promo', hostnames: ['shop.example.com'], rules: [{ paths: ['/promo'], backends: [{ name: 'web' }] }] },
      ],
    });
    const diff = diffFrontDoor(planFrontDoor(withoutPromoHost, options).graph, programmed, scope);
    const deletes = diff.operations.filter((o) => o.action === 'delete');
    expect(deletes.filter((o) => o.ref.kind === 'customDomain').map((o) => o.ref)).toEqual([
      { kind: 'customDomain', profile: programmed.profile!.name, customDomain: customDomainName('promo.example.com') },
    ]);
    expect(deletes.find((o) => o.ref.kind === 'customDomain')?.reason).toContain('(promo.example.com) is not planned');
    expect(deletes.some((o) => o.ref.kind === 'route')).toBe(true);
    expect(
      diff.operations.some((o) => o.ref.kind === 'customDomain' && 'customDomain' in o.ref && o.ref.customDomain === customDomainName('shop.example.com')),
    ).toBe(false);
  });
});
