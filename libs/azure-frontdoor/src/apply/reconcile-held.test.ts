import { describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../observe/report-types.js';
import { buildGateway, type BackendFixture, type GatewayFixture, type RuleFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted, type Harness } from '../testing/emulator-harness.js';

const web: BackendFixture = { name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2' }] };
const other: BackendFixture = { name: 'other', clusters: [{ name: 'member-1' }] };
const api: BackendFixture = { name: 'api', clusters: [{ name: 'member-2' }] };
const privateApi: BackendFixture = { name: 'papi', clusters: [{ name: 'member-3', privateLink: { state: 'Approved' } }] };
const probedApi: BackendFixture = { name: 'probed', clusters: [{ name: 'member-3' }], probePath: '/other-health' };

function gateway(shop: RuleFixture[], extra: GatewayFixture['routes'] = []): GatewayFixture {
  return {
    backends: [web, other, api, privateApi, probedApi],
    routes: [{ name: 'shop', rules: shop }, { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] }, ...extra],
  };
}

const shopOnWeb: RuleFixture[] = [{ paths: ['/shop'], backends: [{ name: 'web' }] }];
const canary = (backends: RuleFixture['backends']): RuleFixture => ({
  matches: [{ path: { type: 'PathPrefix', value: '/shop' }, headers: [{ name: 'x-canary', value: '1' }], queryParams: [] }],
  backends,
});

/** Every AFD resource with the body ARM holds for it: any write changes this picture. */
function snapshot(h: Harness): string {
  return JSON.stringify(
    h.emulator.admin
      .dumpResources()
      .resources.filter((r) => r.type.startsWith('microsoft.cdn/'))
      .map((r) => [r.id, r.body]),
  );
}

const h = useHarness();

async function programmed(fixture: GatewayFixture): Promise<string> {
  const report = await reconcile(h(), buildGateway(fixture));
  expect(report.failures).toEqual([]);
  expect(report.programmed).toBe(true);
  h().emulator.admin.resetCounters();
  return snapshot(h());
}

const kept = (report: ReconcileReport) =>
  report.resources
    .filter((r) => r.action === 'kept')
    .map((r) => r.kind)
    .sort();

describe('a rule that becomes unprogrammable keeps its last programmed routing (fail-static, not deletion)', () => {
  it.each([
    ['MixedOriginConnectivity', 'papi', 'public and Private Link origins cannot share one AFD origin group'],
    ['OriginGroupSettingsDiffer', 'probed', 'different health probe settings'],
  ])('%s: zero writes, the route, its group and origins stay as they are, the report names the error; fixed, it converges', async (code, second, words) => {
    const before = await programmed(gateway(shopOnWeb));

    const broken = await reconcile(h(), buildGateway(gateway([{ paths: ['/shop'], backends: [{ name: 'web' }, { name: second }] }])));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(snapshot(h())).toBe(before);
    expect(broken.writes).toBe(0);
    expect(broken.problems).toEqual([expect.objectContaining({ code, source: { kind: 'HTTPRoute', namespace: 'store', name: 'shop', section: 'rule/0' } })]);
    expect(kept(broken)).toEqual(['origin', 'origin', 'originGroup', 'route']);
    const route = broken.resources.find((r) => r.kind === 'route' && r.action === 'kept');
    expect(route?.cause).toContain("kept as last programmed: it serves /shop over Http on the endpoint's default domain, held while store/shop rule/0: ");
    expect(route?.cause).toContain(words);
    expect(broken.resources.find((r) => r.kind === 'origin' && r.action === 'kept')?.cause).toMatch(
      /^kept as last programmed: held route rt-shop-0-[0-9a-f]{12} uses it$/,
    );

    const fixed = await reconcile(h(), buildGateway(gateway([{ paths: ['/shop'], backends: [{ name: 'web' }, { name: 'api' }] }])));
    expect(fixed.failures).toEqual([]);
    expect(fixed.problems).toEqual([]);
    expect(fixed.programmed).toBe(true);
    expect(
      fixed.resources
        .filter((r) => r.action !== 'unchanged')
        .map((r) => `${r.action} ${r.kind}`)
        .sort(),
    ).toEqual(['created origin', 'created origin', 'created origin', 'created originGroup', 'deleted originGroup', 'updated route']);
    h().emulator.admin.resetCounters();
    expect((await reconcile(h(), buildGateway(gateway([{ paths: ['/shop'], backends: [{ name: 'web' }, { name: 'api' }] }])))).writes).toBe(0);
    expect(writesCounted(h().emulator)).toBe(0);
  });

  it('a conditional rule in error keeps the whole decision of its path: route, rule set, rules, both groups', async () => {
    const before = await programmed(gateway([canary([{ name: 'api' }]), ...shopOnWeb]));
    const broken = await reconcile(h(), buildGateway(gateway([canary([{ name: 'api' }, { name: 'papi' }]), ...shopOnWeb])));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(snapshot(h())).toBe(before);
    expect(broken.problems.map((p) => [p.code, p.source?.section])).toEqual([['MixedOriginConnectivity', 'rule/0']]);
    expect(kept(broken)).toEqual(['origin', 'origin', 'origin', 'originGroup', 'originGroup', 'route', 'rule', 'ruleSet']);

    const removed = await reconcile(h(), buildGateway(gateway(shopOnWeb)));
    expect(removed.failures).toEqual([]);
    expect(
      removed.resources
        .filter((r) => r.action === 'deleted')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['originGroup', 'ruleSet']);
  });

  it('a valid rule whose pattern the held route serves waits, reported as not programmed, with nothing written', async () => {
    const before = await programmed(gateway(shopOnWeb));
    const exactShop: GatewayFixture['routes'] = [
      { name: 'exact', rules: [{ matches: [{ path: { type: 'Exact', value: '/shop' }, headers: [], queryParams: [] }], backends: [{ name: 'other' }] }] },
    ];
    const report = await reconcile(h(), buildGateway(gateway([{ paths: ['/shop'], backends: [{ name: 'web' }, { name: 'papi' }] }], exactShop)));
    expect(report.failures).toEqual([]);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(snapshot(h())).toBe(before);
    const waiting = report.resources.find((r) => r.action === 'not-programmed');
    expect(waiting).toMatchObject({ kind: 'route', name: expect.stringMatching(/^rt-exact-0-/) });
    expect(waiting?.cause).toMatch(/^\/shop over Http on the endpoint's default domain is held by route rt-shop-0-[0-9a-f]{12}, kept as last programmed/);
    expect(report.reason).toBe('Pending');
  });

  it('what is kept counts against AFD limits: over one, nothing is written at all', async () => {
    const before = await programmed(gateway(shopOnWeb));
    const extra: GatewayFixture['routes'] = [{ name: 'extra', rules: [{ paths: ['/extra'], backends: [{ name: 'web' }] }] }];
    const report = await reconcile(h(), buildGateway(gateway([{ paths: ['/shop'], backends: [{ name: 'web' }, { name: 'papi' }] }], extra)), {
      capacityLimits: { routes: 2 },
    });
    expect(writesCounted(h().emulator)).toBe(0);
    expect(snapshot(h())).toBe(before);
    expect(report.reason).toBe('CapacityExceeded');
    expect(report.message).toBe('CapacityExceeded: routes per profile would be 3; the limit for Premium_AzureFrontDoor is 2 (counting what is kept as it is)');
  });
});
