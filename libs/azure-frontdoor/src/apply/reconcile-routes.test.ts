import { describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../observe/report-types.js';
import { buildGateway, type GatewayFixture, type RuleFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted } from '../testing/emulator-harness.js';

const backends: GatewayFixture['backends'] = [
  { name: 'web', clusters: [{ name: 'member-1' }] },
  { name: 'api', clusters: [{ name: 'member-2' }] },
  { name: 'other', clusters: [{ name: 'member-1' }] },
];
const shopPrefix: RuleFixture = { paths: ['/shop'], backends: [{ name: 'web' }] };
const fallback = { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] };
const gateway = (shop: RuleFixture[]): GatewayFixture => ({ backends, routes: [{ name: 'shop', rules: shop }, fallback] });

const h = useHarness();

const routeChanges = (report: ReconcileReport) => report.resources.filter((r) => r.kind === 'route' && r.action !== 'unchanged').map((r) => r.action);
const routePatterns = () =>
  h()
    .emulator.admin.dumpResources()
    .resources.filter((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes')
    .map((r) => (r.body as { properties: { patternsToMatch: string[] } }).properties.patternsToMatch.join(' '))
    .sort();

async function converges(fixture: GatewayFixture): Promise<ReconcileReport> {
  const report = await reconcile(h(), buildGateway(fixture));
  expect(report.failures).toEqual([]);
  expect(report.programmed).toBe(true);
  h().emulator.admin.resetCounters();
  expect((await reconcile(h(), buildGateway(fixture))).writes).toBe(0);
  expect(writesCounted(h().emulator)).toBe(0);
  return report;
}

describe('routes whose decision changes keep their (pattern, protocol)s without a conflict or a gap', () => {
  it('adding a header-match rule to a programmed path updates its route in place (AFD refuses two routes on one pattern)', async () => {
    await converges(gateway([shopPrefix]));
    const canary: RuleFixture = {
      matches: [{ path: { type: 'PathPrefix', value: '/shop' }, headers: [{ name: 'x-canary', value: '1' }], queryParams: [] }],
      backends: [{ name: 'api' }],
    };
    const withCanary = await converges(gateway([shopPrefix, canary]));
    expect(routeChanges(withCanary)).toEqual(['updated']);
    expect(routePatterns()).toEqual(['/ /*', '/shop /shop/*']);

    const without = await converges(gateway([shopPrefix]));
    expect(routeChanges(without)).toEqual(['updated']);
  });

  it('an Exact match splits a route: the route giving up the pattern is written first; removing it merges them back', async () => {
    await converges(gateway([shopPrefix]));
    const exact: RuleFixture = { matches: [{ path: { type: 'Exact', value: '/shop' }, headers: [], queryParams: [] }], backends: [{ name: 'api' }] };
    const split = await converges(gateway([shopPrefix, exact]));
    expect(routeChanges(split).sort()).toEqual(['created', 'updated']);
    expect(routePatterns()).toEqual(['/ /*', '/shop', '/shop/*']);

    const merged = await converges(gateway([shopPrefix]));
    expect(routeChanges(merged).sort()).toEqual(['deleted', 'updated']);
    expect(routePatterns()).toEqual(['/ /*', '/shop /shop/*']);
  });
});
