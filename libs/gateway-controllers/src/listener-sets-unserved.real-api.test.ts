import { OLDEST_GATEWAY_API_VERSION } from '@fleet-gateway/control-plane';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedGatewayApi, servesKind } from './served-gateway-api.js';
import { linesWithStackTraces, whenProgrammed } from './test-support/hub-probes.js';
import { applyGatewayWithRoute, publishExport, readGateway, startHubUnderTest, type HubUnderTest, type RunningAgent } from './test-support/hub-under-test.js';

let hub: HubUnderTest;
let agent: RunningAgent;

beforeAll(async () => {
  hub = await startHubUnderTest({ gatewayApiVersion: OLDEST_GATEWAY_API_VERSION });
  agent = await hub.startAgent({ resyncPeriodMs: 400 });
}, 120_000);
afterAll(async () => {
  await hub?.stop();
});

describe('a hub serving Gateway API v1.2.1, without ListenerSet', { timeout: 120_000 }, () => {
  it('the agent does not watch ListenerSets and programs Gateways as before, writing no attachedListenerSets', async () => {
    expect(servesKind(await servedGatewayApi(hub.client), 'ListenerSet')).toBe(false);
    expect(agent.gateway.listenerSets).toBeUndefined();
    expect(agent.stores.listenerSets).toBeUndefined();
    await publishExport(hub.client, { cluster: 'member-1', service: 'plain', publicAddress: '10.8.0.1' });
    await applyGatewayWithRoute(hub.client, 'plain');
    await whenProgrammed(hub, 'plain', ['plain'], 60_000);
    expect((await readGateway(hub.client, 'plain')).status).not.toHaveProperty('attachedListenerSets');
    expect(hub.logs.lines.filter((l) => l['level'] === 'error')).toEqual([]);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
  });
});
