import { describe, expect, it } from 'vitest';
import { buildGateway, type BackendFixture, type ClusterFixture, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted } from '../testing/emulator-harness.js';
import { originsOf } from '../testing/held-origins.js';

const member1: ClusterFixture = { name: 'member-1', weight: 3, address: '10.1.0.4' };
const member2: ClusterFixture = { name: 'member-2', weight: 1, address: '10.2.0.4' };
const web = (clusters: ClusterFixture[]): BackendFixture => ({ name: 'web', hostHeader: 'web.internal', clusters });
const zeta: BackendFixture = { name: 'zeta', clusters: [{ name: 'member-3', address: '10.3.0.4' }] };
const gateway = (webClusters: ClusterFixture[], withZeta: boolean): GatewayFixture => ({
  backends: [web(webClusters), zeta],
  routes: [{ name: 'shop', rules: [{ paths: ['/shop'], backends: [{ name: 'web' }, ...(withZeta ? [{ name: 'zeta', weight: 3 }] : [])] }] }],
});

const h = useHarness();

type Dumped = { id: string; body: unknown };
const groupIds = () =>
  h()
    .emulator.admin.dumpResources()
    .resources.filter((r) => r.type === 'microsoft.cdn/profiles/origingroups')
    .map((r: Dumped) => r.id);

/** Every origin AFD holds: `group/cluster` -> the properties we manage. */
function origins(): Record<string, Record<string, unknown>> {
  const entries = originsOf(h().emulator.admin.dumpResources().resources).map(({ group, name, properties }) => {
    const { hostName, originHostHeader, httpPort, weight, enabledState } = properties;
    return [
      `${group.slice(0, group.lastIndexOf('-'))}/${name.slice(0, name.lastIndexOf('-'))}`,
      { hostName, originHostHeader, httpPort, weight, enabledState },
    ] as const;
  });
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe('an unknown origin follows its rule into a new origin group (fail-static)', () => {
  it('is carried as last programmed, stays put on the next reconcile, and converges once its data is known', async () => {
    await reconcile(h(), buildGateway(gateway([member1, member2], false)));
    const [before, ...none] = groupIds();
    expect(none).toEqual([]);
    expect(origins()).toEqual({
      'og-web/o-member-1': { hostName: '10.1.0.4', originHostHeader: 'web.internal', httpPort: 8080, weight: 1000, enabledState: 'Enabled' },
      'og-web/o-member-2': { hostName: '10.2.0.4', originHostHeader: 'web.internal', httpPort: 8080, weight: 333, enabledState: 'Enabled' },
    });

    const moved = await reconcile(h(), buildGateway(gateway([member1, { name: 'member-2', unknown: true }], true)));
    expect(moved.failures).toEqual([]);
    expect(moved.programmed).toBe(true);
    expect(groupIds()).toEqual([expect.not.stringMatching(new RegExp(`^${before}$`))]);
    // web now has a quarter of the rule: member-1 is 333 beside zeta's 1000, member-2 keeps its third of member-1.
    expect(origins()).toEqual({
      'og-web/o-member-1': { hostName: '10.1.0.4', originHostHeader: 'web.internal', httpPort: 8080, weight: 333, enabledState: 'Enabled' },
      'og-web/o-member-2': { hostName: '10.2.0.4', originHostHeader: 'web.internal', httpPort: 8080, weight: 111, enabledState: 'Enabled' },
      'og-web/o-member-3': { hostName: '10.3.0.4', httpPort: 8080, weight: 1000, enabledState: 'Enabled' },
    });
    expect(moved.resources.find((r) => r.kind === 'origin' && r.name.startsWith('o-member-2-'))).toMatchObject({
      action: 'created',
      cause: expect.stringContaining('is carried from origin group og-web-'),
    });
    expect(moved.resources.filter((r) => r.action === 'deleted').map((r) => r.kind)).toEqual(['originGroup']);

    h().emulator.admin.resetCounters();
    const again = await reconcile(h(), buildGateway(gateway([member1, { name: 'member-2', unknown: true }], true)));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(again.resources.find((r) => r.name.startsWith('o-member-2-'))).toMatchObject({
      action: 'kept',
      cause: expect.stringContaining('member data of cluster member-2'),
    });

    h().emulator.admin.resetCounters();
    const known = await reconcile(h(), buildGateway(gateway([member1, member2], true)));
    expect(known.programmed).toBe(true);
    expect(writesCounted(h().emulator)).toBe(2);
    expect(origins()).toMatchObject({ 'og-web/o-member-1': { weight: 250 }, 'og-web/o-member-2': { weight: 83 }, 'og-web/o-member-3': { weight: 1000 } });
    h().emulator.admin.resetCounters();
    expect((await reconcile(h(), buildGateway(gateway([member1, member2], true)))).writes).toBe(0);
    expect(writesCounted(h().emulator)).toBe(0);
  });
});
