import { describe, expect, it } from 'vitest';
import { buildGateway, type BackendFixture, type GatewayFixture } from './testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted } from './testing/emulator-harness.js';

const web: BackendFixture = { name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2' }] };
const other: BackendFixture = { name: 'other', clusters: [{ name: 'member-1' }] };

function gateway(webWeight: number, webBackend: BackendFixture = web, ruleBackends?: { name: string; weight?: number }[]): GatewayFixture {
  return {
    backends: [webBackend, other],
    routes: [
      { name: 'shop', rules: [{ paths: ['/shop'], backends: ruleBackends ?? [{ name: 'web', weight: webWeight }] }] },
      { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] },
    ],
  };
}

type Dumped = { type: string; id: string; body: unknown };
const originsOf = (resources: Dumped[], group: string) =>
  resources
    .filter((r) => r.type === 'microsoft.cdn/profiles/origingroups/origins' && r.id.toLowerCase().includes(`/origingroups/${group}/`))
    .map((r) => ({ name: r.id.split('/').pop(), enabledState: (r.body as { properties: { enabledState?: string } }).properties.enabledState }));
const shopRouteGroup = (resources: Dumped[]) => {
  const route = resources.find((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes' && /\/routes\/rt-shop-0-/.test(r.id));
  return String((route?.body as { properties: { originGroup: { id: string } } } | undefined)?.properties.originGroup.id.split('/').pop()).toLowerCase();
};

const h = useHarness();

describe('withdrawal against the emulator', () => {
  it('a rule whose backends lose every origin keeps its route and group, every origin disabled; leftovers go when origins return', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const before = h().emulator.admin.dumpResources().resources;
    const group = shopRouteGroup(before);
    expect(originsOf(before, group).map((o) => o.enabledState)).toEqual(['Enabled', 'Enabled']);

    h().emulator.admin.resetCounters();
    const withdrawn = await reconcile(h(), buildGateway(gateway(0)));
    expect(writesCounted(h().emulator)).toBe(2);
    const during = h().emulator.admin.dumpResources().resources;
    expect(shopRouteGroup(during)).toBe(group);
    expect(originsOf(during, group).map((o) => o.enabledState)).toEqual(['Disabled', 'Disabled']);
    expect(withdrawn.programmed).toBe(true);

    // member-2 leaves while the rule is withdrawn: its origin stays, disabled.
    h().emulator.admin.resetCounters();
    await reconcile(h(), buildGateway(gateway(0, { name: 'web', clusters: [{ name: 'member-1' }] })));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(originsOf(h().emulator.admin.dumpResources().resources, group)).toHaveLength(2);

    // The rule gets origins again: member-1 is enabled, member-2's leftover is deleted.
    h().emulator.admin.resetCounters();
    const back = await reconcile(h(), buildGateway(gateway(1, { name: 'web', clusters: [{ name: 'member-1' }] })));
    expect(back.resources.filter((r) => r.action !== 'unchanged').map((r) => `${r.action} ${r.kind}`).sort()).toEqual(['deleted origin', 'updated origin']);
    expect(originsOf(h().emulator.admin.dumpResources().resources, group)).toEqual([{ name: expect.stringMatching(/^o-member-1-/), enabledState: 'Enabled' }]);
  });

  it('a rule whose backendRefs are all removed keeps its route on the group it used, never falling through to /', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const group = shopRouteGroup(h().emulator.admin.dumpResources().resources);
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), buildGateway(gateway(1, web, [])));
    expect(report.failures).toEqual([]);
    const after = h().emulator.admin.dumpResources().resources;
    expect(shopRouteGroup(after)).toBe(group);
    expect(originsOf(after, group).map((o) => o.enabledState)).toEqual(['Disabled', 'Disabled']);
    expect(writesCounted(h().emulator)).toBe(2);
    expect(report.resources.find((r) => r.kind === 'originGroup' && r.name === group)?.action).toBe('kept');
  });

  it('every cluster of the backend leaving withdraws the rule too (no group is left with only enabled-less origins by accident)', async () => {
    await reconcile(h(), buildGateway(gateway(1)));
    const group = shopRouteGroup(h().emulator.admin.dumpResources().resources);
    await reconcile(h(), buildGateway(gateway(1, { name: 'web', clusters: [] })));
    const after = h().emulator.admin.dumpResources().resources;
    expect(shopRouteGroup(after)).toBe(group);
    expect(originsOf(after, group).map((o) => o.enabledState)).toEqual(['Disabled', 'Disabled']);
  });
});
