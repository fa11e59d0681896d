import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  publishExport,
  readGateway,
  routeBody,
  routePath,
  startHubUnderTest,
  type HubUnderTest,
} from './test-support/hub-under-test.js';

let hub: HubUnderTest;

beforeAll(async () => {
  hub = await startHubUnderTest();
}, 120_000);

afterAll(async () => {
  await hub?.stop();
});

const programmed = (name: string) =>
  eventually(
    () => readGateway(hub.client, name),
    (g) => conditionOf(g, 'Programmed')?.status === 'True' && (g.status?.addresses ?? []).length > 0,
    30_000,
  );

describe('two replicas of the hub agent', { timeout: 120_000 }, () => {
  it('one leads and programs, the standby writes nothing; when the leader goes, the standby takes over', async () => {
    const a = await hub.startAgent({ leaderIdentity: 'replica-a', resyncPeriodMs: 500 });
    const b = await hub.startAgent({ leaderIdentity: 'replica-b', resyncPeriodMs: 500 });
    const [leader, standby] = await eventually(
      () => [a, b].filter((r) => r.elector?.isLeader).concat([a, b].filter((r) => !r.elector?.isLeader)),
      (ordered) => ordered[0]?.elector?.isLeader === true,
      20_000,
    );
    expect([a, b].filter((r) => r.elector?.isLeader)).toHaveLength(1);

    await publishExport(hub.client, { cluster: 'member-1', service: 'lead', publicAddress: '10.1.0.40' });
    await applyObject(hub.client, gatewayPath('first'), gatewayBody('first'));
    await applyObject(hub.client, routePath('lead'), routeBody('lead', 'first', [{ path: '/', backends: [{ name: 'lead' }] }]));
    await programmed('first');
    expect(leader!.gateway.statusWriter.writes).toBeGreaterThan(0);
    expect(standby!.gateway.statusWriter.writes).toBe(0);
    // The standby keeps warm caches: it has seen the Gateway without reconciling it.
    expect(standby!.gateway.gateways.store.getByName('first', 'shop')).toBeDefined();

    await leader!.stop();
    await eventually(
      () => standby!.elector?.isLeader,
      (leading) => leading === true,
      20_000,
    );
    await applyObject(hub.client, gatewayPath('second'), gatewayBody('second'));
    await applyObject(hub.client, routePath('lead2'), routeBody('lead2', 'second', [{ path: '/', backends: [{ name: 'lead' }] }]));
    await programmed('second');
    expect(standby!.gateway.statusWriter.writes).toBeGreaterThan(0);
  });
});
