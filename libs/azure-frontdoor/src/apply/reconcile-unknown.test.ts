import { describe, expect, it } from 'vitest';
import { buildGateway, type ClusterFixture, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted } from '../testing/emulator-harness.js';
import { originsOf } from '../testing/held-origins.js';

const ORIGINS = 'Microsoft.Cdn/profiles/originGroups/origins';

function gateway(clusters: ClusterFixture[]): GatewayFixture {
  return {
    backends: [
      { name: 'web', clusters },
      { name: 'other', clusters: [{ name: 'member-1' }] },
    ],
    routes: [
      { name: 'shop', rules: [{ paths: ['/shop'], backends: [{ name: 'web' }] }] },
      { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] },
    ],
  };
}

const known: ClusterFixture[] = [
  { name: 'member-1', address: '10.1.0.4' },
  { name: 'member-2', address: '10.2.0.4' },
];
const stale = (cluster: ClusterFixture): ClusterFixture => ({ ...cluster, unknown: true });

const h = useHarness();

const webOrigins = () =>
  originsOf(h().emulator.admin.dumpResources().resources, /^og-web-/i).map((o) => ({
    name: o.name.split('-').slice(0, 3).join('-'),
    properties: o.properties,
  }));

describe('unknown member data keeps what was programmed (fail-static)', () => {
  it('an origin whose member data went stale is neither changed nor deleted, and says why', async () => {
    await reconcile(h(), buildGateway(gateway(known)));
    const before = JSON.stringify(webOrigins());
    h().emulator.admin.resetCounters();

    const report = await reconcile(h(), buildGateway(gateway([known[0] as ClusterFixture, stale(known[1] as ClusterFixture)])));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(JSON.stringify(webOrigins())).toBe(before);
    const member2 = report.resources.find((r) => r.kind === 'origin' && r.name.startsWith('o-member-2-'));
    expect(member2).toMatchObject({
      action: 'kept',
      cause: 'member data of cluster member-2 for store/web:8080 is unknown: the member marked its Azure data stale',
    });
    expect(report.programmed).toBe(true);
  });

  it('every origin of a rule unknown: the rule is not withdrawn, its origins stay enabled as they are', async () => {
    await reconcile(h(), buildGateway(gateway(known)));
    const before = JSON.stringify(webOrigins());
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), buildGateway(gateway(known.map(stale))));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(JSON.stringify(webOrigins())).toBe(before);
    expect(webOrigins().map((o) => o.properties['enabledState'])).toEqual(['Enabled', 'Enabled']);
    expect(report.resources.filter((r) => r.action === 'kept').map((r) => r.kind)).toEqual(['origin', 'origin']);
  });

  it('a change to a known origin writes that origin only; the unknown one is untouched', async () => {
    await reconcile(h(), buildGateway(gateway(known)));
    const member2Before = JSON.stringify(webOrigins().find((o) => o.name === 'o-member-2'));
    h().emulator.admin.resetCounters();
    const report = await reconcile(h(), buildGateway(gateway([{ name: 'member-1', address: '10.1.0.99' }, stale(known[1] as ClusterFixture)])));
    expect(writesCounted(h().emulator)).toBe(1);
    expect(writesCounted(h().emulator, ORIGINS)).toBe(1);
    expect(report.resources.filter((r) => r.action === 'updated').map((r) => [r.kind, r.name.split('-').slice(0, 3).join('-'), r.cause])).toEqual([
      ['origin', 'o-member-1', expect.stringContaining('hostName 10.1.0.4 -> 10.1.0.99')],
    ]);
    expect(JSON.stringify(webOrigins().find((o) => o.name === 'o-member-2'))).toBe(member2Before);
  });

  it('a cluster never programmed and unknown is not created until its data is known; then it converges', async () => {
    await reconcile(h(), buildGateway(gateway(known)));
    h().emulator.admin.resetCounters();
    const withNew = (member3: ClusterFixture) => buildGateway(gateway([...known, member3]));
    const waiting = await reconcile(h(), withNew({ name: 'member-3', unknown: true }));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(waiting.resources.find((r) => r.name.startsWith('o-member-3-'))).toMatchObject({
      action: 'not-programmed',
      cause: expect.stringContaining('member data of cluster member-3'),
    });
    expect(waiting.reason).toBe('Pending');

    const arrived = await reconcile(h(), withNew({ name: 'member-3', address: '10.3.0.4' }));
    expect(arrived.failures).toEqual([]);
    expect(arrived.programmed).toBe(true);
    expect(arrived.resources.filter((r) => r.action === 'created').map((r) => r.name.split('-').slice(0, 3).join('-'))).toEqual(['o-member-3']);
    h().emulator.admin.resetCounters();
    expect((await reconcile(h(), withNew({ name: 'member-3', address: '10.3.0.4' }))).writes).toBe(0);
    expect(writesCounted(h().emulator)).toBe(0);
  });
});
