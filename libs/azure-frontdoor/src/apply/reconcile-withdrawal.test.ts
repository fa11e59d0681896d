import { describe, expect, it } from 'vitest';
import { buildGateway, type BackendFixture, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted } from '../testing/emulator-harness.js';
import { originsOf } from '../testing/held-origins.js';

const web: BackendFixture = { name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2' }] };
const other: BackendFixture = { name: 'other', clusters: [{ name: 'member-1' }] };

function gateway(
  webWeight: number,
  webBackend: BackendFixture = web,
  ruleBackends?: { name: string; weight?: number }[],
  extra: BackendFixture[] = [],
): GatewayFixture {
  return {
    backends: [webBackend, other, ...extra],
    routes: [
      { name: 'shop', rules: [{ paths: ['/shop'], backends: ruleBackends ?? [{ name: 'web', weight: webWeight }] }] },
      { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] },
    ],
  };
}

type Dumped = { type: string; id: string; body: unknown };
type Properties = { properties: Record<string, unknown> };
const propertiesOf = (r: Dumped) => (r.body as Properties).properties;
const groupName = (id: unknown) => String(id).split('/').pop()?.toLowerCase() as string;
const groups = (resources: Dumped[]) => resources.filter((r) => r.type === 'microsoft.cdn/profiles/origingroups').map((r) => groupName(r.id));
const shopRouteGroup = (resources: Dumped[]) => {
  const route = resources.find((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes' && /\/routes\/rt-shop-0-/.test(r.id));
  return groupName((route && (propertiesOf(route).originGroup as { id: string }).id) ?? '');
};

/** AFD's rule, checked on the emulator's state after every reconcile: every group a route uses has an enabled origin. */
function expectEveryRoutedGroupServes(resources: Dumped[]): void {
  const routed = resources
    .filter((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes')
    .map((r) => groupName((propertiesOf(r).originGroup as { id: string }).id));
  for (const group of routed)
    expect(
      originsOf(resources, group).some((o) => o.properties.enabledState !== 'Disabled'),
      `group ${group} has an enabled origin`,
    ).toBe(true);
}

const h = useHarness();
const dump = () => h().emulator.admin.dumpResources().resources as Dumped[];

describe("withdrawal against the emulator (every write legal under AFD's last-enabled-origin rule)", () => {
  it('a rule whose backends lose every origin moves its route to the sink group; its old group goes; returning origins bring a group back and the sink goes', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const group = shopRouteGroup(dump());
    expect(originsOf(dump(), group).map((o) => o.properties.enabledState)).toEqual(['Enabled', 'Enabled']);

    h().emulator.admin.resetCounters();
    const withdrawn = await reconcile(h(), buildGateway(gateway(0)));
    expect(withdrawn.failures).toEqual([]);
    expect(withdrawn.programmed).toBe(true);
    const during = dump();
    const sink = shopRouteGroup(during);
    expect(sink).toMatch(/^og-withdrawn-/);
    expect(originsOf(during, sink)).toEqual([
      expect.objectContaining({
        name: expect.stringMatching(/^o-unreachable-/),
        properties: expect.objectContaining({ hostName: expect.stringMatching(/\.withdrawn\.invalid$/), enabledState: 'Enabled' }),
      }),
    ]);
    expect(groups(during)).not.toContain(group);
    // The sink group and its origin, the route switch, then the old group (its origins go with it).
    expect(writesCounted(h().emulator)).toBe(4);
    expectEveryRoutedGroupServes(during);

    // member-2 leaves while the rule is withdrawn: nothing to write.
    h().emulator.admin.resetCounters();
    await reconcile(h(), buildGateway(gateway(0, { name: 'web', clusters: [{ name: 'member-1' }] })));
    expect(writesCounted(h().emulator)).toBe(0);

    // The rule gets an origin again: its group is created before the route leaves the sink, then the sink goes.
    h().emulator.admin.resetCounters();
    const back = await reconcile(h(), buildGateway(gateway(1, { name: 'web', clusters: [{ name: 'member-1' }] })));
    expect(back.failures).toEqual([]);
    expect(
      back.resources
        .filter((r) => r.action !== 'unchanged')
        .map((r) => `${r.action} ${r.kind}`)
        .sort(),
    ).toEqual(['created origin', 'created originGroup', 'deleted originGroup', 'updated route']);
    const after = dump();
    expect(shopRouteGroup(after)).toBe(group);
    expect(originsOf(after, group)).toEqual([
      expect.objectContaining({
        name: expect.stringMatching(/^o-member-1-/),
        properties: expect.objectContaining({ hostName: expect.any(String), enabledState: 'Enabled' }),
      }),
    ]);
    expect(groups(after)).not.toContain(sink);
    expectEveryRoutedGroupServes(after);
  });

  it('a rule whose backendRefs are all removed goes to the sink, never falling through to /', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const fallbackGroup = groups(dump()).filter((g) => g !== shopRouteGroup(dump()));
    const report = await reconcile(h(), buildGateway(gateway(1, web, [])));
    expect(report.failures).toEqual([]);
    const after = dump();
    expect(shopRouteGroup(after)).toMatch(/^og-withdrawn-/);
    expect(groups(after).sort()).toEqual([...fallbackGroup, shopRouteGroup(after)].sort());
    expectEveryRoutedGroupServes(after);
  });

  it('every cluster of the backend leaving withdraws the rule too', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const report = await reconcile(h(), buildGateway(gateway(1, { name: 'web', clusters: [] })));
    expect(report.failures).toEqual([]);
    expect(shopRouteGroup(dump())).toMatch(/^og-withdrawn-/);
    expectEveryRoutedGroupServes(dump());
  });

  it('a rule that moves to a backend no member has reported keeps serving from its current group (fail-static), no illegal write', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const group = shopRouteGroup(dump());
    const unreported: BackendFixture = { name: 'fresh', clusters: [{ name: 'member-3', unknown: true }] };
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), buildGateway(gateway(1, web, [{ name: 'fresh' }], [unreported])));
    expect(report.failures).toEqual([]);
    const after = dump();
    expect(shopRouteGroup(after)).toBe(group);
    expect(originsOf(after, group).map((o) => o.properties.enabledState)).toEqual(['Enabled', 'Enabled']);
    expect(report.resources.find((r) => r.kind === 'originGroup' && r.name === group)?.action).toBe('kept');
    expect(writesCounted(h().emulator)).toBe(0);
    expectEveryRoutedGroupServes(after);
  });

  it('a conditional rule that loses every origin: its RouteConfigurationOverride switches to the sink before its old group goes; back again the same way', async () => {
    const canary = (weight: number): GatewayFixture => ({
      backends: [web, other],
      routes: [
        {
          name: 'shop',
          rules: [
            {
              matches: [{ path: { type: 'PathPrefix', value: '/' }, headers: [{ name: 'x-canary', value: '1' }], queryParams: [] }],
              backends: [{ name: 'web', weight }],
            },
            { paths: ['/'], backends: [{ name: 'other' }] },
          ],
        },
      ],
    });
    const overrideGroups = () =>
      dump()
        .filter((r) => r.type === 'microsoft.cdn/profiles/rulesets/rules')
        .flatMap((r) => propertiesOf(r).actions as { name: string; parameters: { originGroupOverride?: { originGroup: { id: string } } } }[])
        .flatMap((a) =>
          a.name === 'RouteConfigurationOverride' && a.parameters.originGroupOverride ? [groupName(a.parameters.originGroupOverride.originGroup.id)] : [],
        );
    const expectEveryOverrideServes = () => {
      for (const group of overrideGroups())
        expect(
          originsOf(dump(), group).some((o) => o.properties.enabledState !== 'Disabled'),
          `override group ${group} has an enabled origin`,
        ).toBe(true);
    };
    expect((await reconcile(h(), buildGateway(canary(1)))).failures).toEqual([]);
    const [before] = overrideGroups();
    expect(before).toMatch(/^og-web-/);

    const withdrawn = await reconcile(h(), buildGateway(canary(0)));
    expect(withdrawn.failures).toEqual([]);
    expect(overrideGroups()).toEqual([expect.stringMatching(/^og-withdrawn-/)]);
    expect(groups(dump())).not.toContain(before);
    expectEveryOverrideServes();
    expectEveryRoutedGroupServes(dump());

    const back = await reconcile(h(), buildGateway(canary(1)));
    expect(back.failures).toEqual([]);
    expect(overrideGroups()).toEqual([before]);
    expect(groups(dump()).some((g) => g.startsWith('og-withdrawn-'))).toBe(false);
    expectEveryOverrideServes();
  });
});
