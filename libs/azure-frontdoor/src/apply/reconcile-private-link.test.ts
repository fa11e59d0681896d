import type { GlobalGateway } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness, writesCounted } from '../testing/emulator-harness.js';
import { approveConnection, createPrivateLinkService, memberNetwork } from '../testing/private-link-service.js';

/** The fixture names a Private Link Service by convention; point its origins at the one the cloud provider created. */
function withService(model: GlobalGateway, serviceId: string): GlobalGateway {
  const backends = model.backends.map((b) => ({
    ...b,
    origins: b.origins.map((o) => ({ ...o, privateLink: o.privateLink && { ...o.privateLink, resourceId: serviceId } })),
  }));
  return { ...model, backends };
}

const h = useHarness();

describe('Private Link origins against the emulator', () => {
  it('pending -> approved: readiness follows the member report, AFD status is the cross-check, no write when nothing else changes', async () => {
    const network = memberNetwork(h().emulator, 'member-1');
    const pls = await createPrivateLinkService(network, 'web');
    const requestMessage = 'fleet:gw-1:3f9c2a7e0b1d4c58';
    const fixture = (state: 'Pending' | 'Approved'): GatewayFixture => ({
      sku: 'Premium_AzureFrontDoor',
      backends: [{ name: 'web', clusters: [{ name: 'member-1', address: pls.address, privateLink: { state, requestMessage } }] }],
      routes: [{ name: 'shop', rules: [{ backends: [{ name: 'web' }] }] }],
    });
    const model = (state: 'Pending' | 'Approved') => withService(buildGateway(fixture(state)), pls.id);

    const pending = await reconcile(h(), model('Pending'));
    expect(pending.failures).toEqual([]);
    expect(pending.programmed).toBe(false);
    expect(pending.reason).toBe('Pending');
    expect(pending.message).toMatch(
      /^Private Link: 1 of 1 connections awaiting approval \(member-1 Pending, PLS \/subscriptions\/[^;]+\/privateLinkServices\/[^;]+\); approve with: az network private-endpoint-connection list --id/,
    );
    expect(pending.outcome).toMatchObject({ type: 'requeue-after' });
    expect(pending.resources.find((r) => r.kind === 'origin')?.cause).toContain('Private Link: Pending');

    await approveConnection(network, 'pls-web', requestMessage);
    h().emulator.admin.resetCounters();
    const approved = await reconcile(h(), model('Approved'));
    expect(writesCounted(h().emulator)).toBe(0);
    expect(approved.programmed).toBe(true);
    expect(approved.resources.find((r) => r.kind === 'origin')?.cause).toBe('Private Link: Approved');
  });

  it('the member’s Approved is not enough while AFD holds its own connection Pending (a re-created origin asks anew): not programmed, and said so', async () => {
    const network = memberNetwork(h().emulator, 'member-1');
    const pls = await createPrivateLinkService(network, 'web');
    const model = withService(
      buildGateway({
        sku: 'Premium_AzureFrontDoor',
        backends: [
          { name: 'web', clusters: [{ name: 'member-1', address: pls.address, privateLink: { state: 'Approved', requestMessage: 'fleet:gw-1:abc' } }] },
        ],
        routes: [{ name: 'shop', rules: [{ backends: [{ name: 'web' }] }] }],
      }),
      pls.id,
    );
    const report = await reconcile(h(), model);
    expect(report.programmed).toBe(false);
    expect(report.reason).toBe('Pending');
    expect(report.privateLinkAwaiting).toBe(1);
    expect(report.message).toContain('Private Link: 1 of 1 connections awaiting approval (member-1 Pending (AFD; the member last reported Approved), PLS');
    expect(report.resources.find((r) => r.kind === 'origin')).toMatchObject({
      privateLinkStatus: 'Pending',
      cause: expect.stringContaining('Private Link: the member reports Approved, AFD reports Pending'),
    });
    // Once AFD's own connection is approved, the two agree.
    await approveConnection(network, 'pls-web', 'fleet:gw-1:abc');
    const agreed = await reconcile(h(), model);
    expect(agreed.programmed).toBe(true);
    expect(agreed.privateLinkAwaiting).toBe(0);
  });
});
