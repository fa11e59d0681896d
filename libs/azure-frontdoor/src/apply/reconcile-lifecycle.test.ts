import { describe, expect, it } from 'vitest';
import { allRefs } from '../plan/plan-front-door.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway, type BackendFixture, type GatewayFixture } from '../testing/gateway-builder.js';
import { HUB_IDENTITY, readsCounted, reconcile, useHarness, TEST_SCOPE, writesCounted } from '../testing/emulator-harness.js';
import { originsOf } from '../testing/held-origins.js';

const web: BackendFixture = {
  name: 'web',
  clusters: [
    { name: 'member-1', weight: 1 },
    { name: 'member-2', weight: 1 },
  ],
};
const api: BackendFixture = { name: 'api', clusters: [{ name: 'member-1' }, { name: 'member-2' }] };
const base: GatewayFixture = {
  backends: [web, api],
  routes: [
    {
      name: 'shop',
      rules: [
        { paths: ['/shop'], backends: [{ name: 'web' }] },
        { paths: ['/api'], backends: [{ name: 'api' }] },
      ],
    },
    {
      name: 'canary',
      rules: [
        { matches: [{ path: { type: 'PathPrefix', value: '/' }, headers: [{ name: 'x-canary', value: '1' }], queryParams: [] }], backends: [{ name: 'api' }] },
        { backends: [{ name: 'web' }] },
      ],
    },
  ],
};

const h = useHarness();

describe('reconcile against the emulator: lifecycle', () => {
  it('cold create makes exactly one write per planned resource; a second reconcile reads 6 + E + G + S lists and writes nothing', async () => {
    const model = buildGateway(base);
    const planned = allRefs(planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph);
    const first = await reconcile(h(), model);
    expect(first.failures).toEqual([]);
    expect(writesCounted(h().emulator)).toBe(planned.length);
    expect(first.writes).toBe(planned.length);
    expect(first.resources.filter((r) => r.action === 'created')).toHaveLength(planned.length);
    expect(first.programmed).toBe(true);
    expect(first.endpointHostName).toMatch(/\.z01\.azurefd\.net$/);

    h().emulator.admin.resetCounters();
    const second = await reconcile(h(), model);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(second.writes).toBe(0);
    expect(second.resources.every((r) => r.action === 'unchanged')).toBe(true);
    const graph = planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph;
    expect(readsCounted(h().emulator)).toBe(6 + 1 + graph.originGroups.length + graph.ruleSets.length);
  });

  it('changing one weight makes exactly one write', async () => {
    await reconcile(h(), buildGateway(base));
    h().emulator.admin.resetCounters();
    const changed = buildGateway({
      ...base,
      backends: [
        {
          ...web,
          clusters: [
            { name: 'member-1', weight: 1 },
            { name: 'member-2', weight: 2 },
          ],
        },
        api,
      ],
    });
    const report = await reconcile(h(), changed);
    expect(writesCounted(h().emulator)).toBe(1);
    expect(writesCounted(h().emulator, 'Microsoft.Cdn/profiles/originGroups/origins')).toBe(1);
    const updated = report.resources.filter((r) => r.action === 'updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]?.cause).toMatch(/weight 1000 -> 500$/);
  });

  it('adding a cluster makes only the writes it needs: one new origin per group of that backend, weights that moved', async () => {
    await reconcile(h(), buildGateway(base));
    h().emulator.admin.resetCounters();
    const grown = buildGateway({ ...base, backends: [web, { ...api, clusters: [...api.clusters, { name: 'member-3' }] }] });
    const report = await reconcile(h(), grown);
    const created = report.resources.filter((r) => r.action === 'created');
    expect(created.map((r) => [r.kind, r.name.split('-').slice(0, 3).join('-')])).toEqual([['origin', 'o-member-3']]);
    expect(writesCounted(h().emulator)).toBe(report.resources.filter((r) => r.action === 'created' || r.action === 'updated').length);
    expect(report.resources.filter((r) => r.action === 'updated')).toEqual([]);
  });

  it('moving routes to a new backend creates the new group first, switches the routes, then deletes the old group', async () => {
    await reconcile(h(), buildGateway(base));
    const cart: BackendFixture = { name: 'cart', clusters: [{ name: 'member-1' }, { name: 'member-2' }] };
    const moved: GatewayFixture = {
      backends: [cart, api],
      routes: [
        {
          name: 'shop',
          rules: [
            { paths: ['/shop'], backends: [{ name: 'cart' }] },
            { paths: ['/api'], backends: [{ name: 'api' }] },
          ],
        },
        {
          name: 'canary',
          rules: [base.routes[1]?.rules[0] as NonNullable<GatewayFixture['routes'][number]['rules'][number]>, { backends: [{ name: 'cart' }] }],
        },
      ],
    };
    const report = await reconcile(h(), buildGateway(moved));
    // The emulator refuses a route to a missing group and the deletion of a group a route uses: success proves the order.
    expect(report.failures).toEqual([]);
    const summary = report.resources
      .filter((r) => r.action !== 'unchanged')
      .map((r) => `${r.action} ${r.kind}`)
      .sort();
    expect(summary).toEqual(['created origin', 'created origin', 'created originGroup', 'deleted originGroup', 'updated route', 'updated route']);
    const dump = h().emulator.admin.dumpResources().resources;
    const groups = dump.filter((r) => r.type === 'microsoft.cdn/profiles/origingroups').map((g) => g.id.toLowerCase());
    const routes = dump.filter((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes');
    expect(routes).toHaveLength(3);
    for (const route of routes)
      expect(groups).toContain(String((route.body as { properties: { originGroup: { id: string } } }).properties.originGroup.id).toLowerCase());
    expect((await reconcile(h(), buildGateway(moved))).writes).toBe(0);
  });

  it('a redirect rule (no backend) routes to the sink group (an enabled origin that cannot resolve) with a UrlRedirect rule; it converges to zero writes', async () => {
    const redirecting: GatewayFixture = {
      ...base,
      routes: [
        ...base.routes,
        { name: 'old', rules: [{ paths: ['/old'], backends: [], filters: [{ type: 'RequestRedirect', scheme: 'https', path: '/new', statusCode: 301 }] }] },
      ],
    };
    const report = await reconcile(h(), buildGateway(redirecting));
    expect(report.failures).toEqual([]);
    const rules = h()
      .emulator.admin.dumpResources()
      .resources.filter((r) => r.type === 'microsoft.cdn/profiles/rulesets/rules');
    const actions = rules.flatMap((r) => (r.body as { properties: { actions: { name: string }[] } }).properties.actions.map((a) => a.name));
    expect(actions.sort()).toEqual(['RouteConfigurationOverride', 'UrlRedirect']);
    const resources = h().emulator.admin.dumpResources().resources;
    const redirectRoute = resources.find((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes' && /\/routes\/rt-old-0-/.test(r.id));
    const sinkId = String((redirectRoute?.body as { properties: { originGroup: { id: string } } }).properties.originGroup.id).toLowerCase();
    expect(sinkId).toMatch(/\/origingroups\/og-withdrawn-[0-9a-f]{12}$/);
    expect(originsOf(resources, sinkId.slice(sinkId.lastIndexOf('/') + 1)).map((o) => o.properties)).toEqual([
      expect.objectContaining({ hostName: expect.stringMatching(/\.withdrawn\.invalid$/), enabledState: 'Enabled' }),
    ]);
    h().emulator.admin.resetCounters();
    expect((await reconcile(h(), buildGateway(redirecting))).writes).toBe(0);
    expect(writesCounted(h().emulator)).toBe(0);
  });

  it('deleting a rule removes its route; deleting the Gateway removes the profile after proving ownership', async () => {
    await reconcile(h(), buildGateway(base));
    const fewer: GatewayFixture = { ...base, routes: [{ name: 'shop', rules: [{ paths: ['/shop'], backends: [{ name: 'web' }] }] }] };
    const report = await reconcile(h(), buildGateway(fewer));
    expect(
      report.resources
        .filter((r) => r.action === 'deleted')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['originGroup', 'route', 'route', 'ruleSet']);
    const { deleteFrontDoor } = await import('./delete-front-door.js');
    const gateway = buildGateway(fewer).gateway;
    const deleted = await deleteFrontDoor(h().clients, gateway, { hubIdentity: HUB_IDENTITY, scope: TEST_SCOPE, pollIntervalMs: 5 });
    expect(deleted.result).toBe('deleted');
    expect(
      h()
        .emulator.admin.dumpResources()
        .resources.filter((r) => r.type.startsWith('microsoft.cdn/')),
    ).toEqual([]);
    expect((await deleteFrontDoor(h().clients, gateway, { hubIdentity: HUB_IDENTITY, scope: TEST_SCOPE })).result).toBe('absent');
  });
});
