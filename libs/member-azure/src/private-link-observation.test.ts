import { AZURE_DATA_CURRENT_CONDITION, CONNECTIONS_APPROVED_CONDITION, ORIGIN_PUBLISHED_CONDITION } from '@fleet-gateway/member-export';
import { describe, expect, it } from 'vitest';
import type { ConnectionView } from './azure-views.js';
import type { DiscoveryResult, PublishedPrivateLink } from './private-link-discovery.js';
import { privateLinkObservation, PRIVATE_LINK_EVENT_REASONS, PRIVATE_LINK_REASONS, type PrivateLinkObservationInputs } from './private-link-observation.js';

const SUB = '11111111-0000-0000-0000-000000000001';
const PLS_ID = `/subscriptions/${SUB}/resourceGroups/mc-member-1/providers/Microsoft.Network/privateLinkServices/pls-web`;
const frontDoorEndpoint = (n: number) =>
  `/subscriptions/99999999-0000-0000-0000-00000000000f/resourceGroups/eafd-Prod-eastus2/providers/Microsoft.Network/privateEndpoints/afd-${n}`;
const customerEndpoint = `/subscriptions/${SUB}/resourceGroups/apps/providers/Microsoft.Network/privateEndpoints/mine`;
const connection = (name: string, status: ConnectionView['status'], description: string, privateEndpointId = frontDoorEndpoint(1)): ConnectionView => ({
  id: `${PLS_ID}/privateEndpointConnections/${name}`,
  name,
  status,
  description,
  privateEndpointId,
});
const readAt = new Date('2026-12-01T10:00:00Z');

function found(connections: ConnectionView[], extra: Partial<PublishedPrivateLink> = {}): PublishedPrivateLink {
  return {
    state: 'found',
    privateLinkService: {
      id: PLS_ID,
      name: 'pls-web',
      location: 'eastus2',
      alias: 'pls-web.abc.eastus2.azure.privatelinkservice',
      frontendIpConfigurationId: 'fe',
      internalAddress: '10.224.0.7',
      ownership: 'this-service',
    },
    connections,
    connectionsReadAt: readAt,
    awaitedMessages: [],
    ...extra,
  };
}

const base = (result: DiscoveryResult, extra: Partial<PrivateLinkObservationInputs> = {}): PrivateLinkObservationInputs => ({
  serviceKey: 'shop/web',
  hubExportRef: 'fleet-member-member-1/shop-web',
  result,
  requests: [],
  published: {},
  nodeResourceGroup: 'mc-member-1',
  ...extra,
});
const conditionOf = (observation: ReturnType<typeof privateLinkObservation>, type: string) => observation.conditions.find((c) => c.type === type);
const request = (gateway: string, requestMessage: string) => ({ gateway, requestMessage });

describe('privateLinkObservation', () => {
  it('publishes the service, its address and only Front Door’s connections, sorted, with fresh data', () => {
    const observation = privateLinkObservation(
      base(
        found([
          connection('z-afd', 'Approved', 'm-1', frontDoorEndpoint(2)),
          connection('mine', 'Pending', 'please', customerEndpoint),
          connection('a-afd', 'Pending', 'm-2'),
        ]),
      ),
    );
    expect(observation.fields).toEqual({
      internalLoadBalancerIP: '10.224.0.7',
      privateLinkService: { resourceID: PLS_ID, location: 'eastus2', alias: 'pls-web.abc.eastus2.azure.privatelinkservice' },
      privateEndpointConnections: [
        { name: 'a-afd', status: 'Pending', description: 'm-2', privateEndpointID: frontDoorEndpoint(1) },
        { name: 'z-afd', status: 'Approved', description: 'm-1', privateEndpointID: frontDoorEndpoint(2) },
      ],
    });
    expect(conditionOf(observation, ORIGIN_PUBLISHED_CONDITION)).toMatchObject({ status: 'True', reason: PRIVATE_LINK_REASONS.published });
    expect(conditionOf(observation, AZURE_DATA_CURRENT_CONDITION)).toMatchObject({ status: 'True' });
    // No request from the hub yet: nothing to say about approval, nothing to wait for.
    expect(conditionOf(observation, CONNECTIONS_APPROVED_CONDITION)).toBeUndefined();
    expect(observation.recheck).toBeUndefined();
  });

  it('marks values read before a failure stale, and says since when and why', () => {
    const stale = {
      since: new Date('2026-12-01T10:05:00Z'),
      failure: { class: 'transient', category: 'server', status: 503, code: 'ServiceUnavailable', cause: 'try later' },
    } as const;
    const observation = privateLinkObservation(base(found([], { stale, requeueAfterMs: 4_000 })));
    expect(observation.fields.azureDataStale).toBe(true);
    expect(observation.fields.privateLinkService?.resourceID).toBe(PLS_ID);
    const current = conditionOf(observation, AZURE_DATA_CURRENT_CONDITION);
    expect(current).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.readFailed });
    expect(current?.message).toContain('since 2026-12-01T10:05:00.000Z (ServiceUnavailable: try later)');
    expect(observation.recheck?.afterMs).toBe(4_000);
  });

  it('keeps what the hub export carries when Azure was never read since a restart, and never publishes nothing instead', () => {
    const published = { internalLoadBalancerIP: '10.224.0.7', privateLinkService: { resourceID: PLS_ID, location: 'eastus2' } };
    const failed: DiscoveryResult = {
      state: 'unknown',
      reason: 'AzureReadFailed',
      message: 'could not read Microsoft.Network in mc-member-1: AuthorizationFailed: no',
      requeueAfterMs: 2_000,
    };
    const kept = privateLinkObservation(base(failed, { published, publishedAt: '2026-12-01T09:00:00Z' }));
    expect(kept.fields).toEqual({ ...published, azureDataStale: true });
    expect(conditionOf(kept, AZURE_DATA_CURRENT_CONDITION)?.message).toContain('keeps the values last read (2026-12-01T09:00:00Z), marked stale');
    expect(kept.recheck?.afterMs).toBe(2_000);
    // Nothing was ever published: nothing to keep, and no origin is made up.
    const none = privateLinkObservation(base(failed));
    expect(none.fields).toEqual({});
    expect(conditionOf(none, ORIGIN_PUBLISHED_CONDITION)).toMatchObject({ status: 'Unknown', reason: 'AzureReadFailed' });
  });

  it('a missing service is unknown, publishes no origin (never a public one) and is looked at again', () => {
    const observation = privateLinkObservation(
      base(
        { state: 'unknown', reason: 'PrivateLinkServiceNotFound', message: 'no Private Link Service on frontend x yet', requeueAfterMs: 60_000 },
        { published: { publicAddress: '20.1.1.1' } },
      ),
    );
    expect(observation.fields).toEqual({});
    expect(conditionOf(observation, ORIGIN_PUBLISHED_CONDITION)).toMatchObject({ status: 'Unknown', reason: 'PrivateLinkServiceNotFound' });
    expect(observation.recheck).toEqual({ afterMs: 60_000, reason: 'no Private Link Service on frontend x yet' });
    const pending = privateLinkObservation(base({ state: 'unknown', reason: 'AddressPending', message: 'no address' }));
    expect(pending.recheck?.afterMs).toBeGreaterThan(0);
    expect(conditionOf(pending, ORIGIN_PUBLISHED_CONDITION)?.reason).toBe('LoadBalancerAddressPending');
  });

  it('manual mode: the exact approval command per Pending connection, keeping the hub’s message', () => {
    const observation = privateLinkObservation(base(found([connection('afd-1', 'Pending', "m'1")]), { requests: [request('shop/web', "m'1")] }));
    const approval = conditionOf(observation, CONNECTIONS_APPROVED_CONDITION);
    expect(approval).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.manualApproval });
    expect(approval?.message).toBe(
      `Gateway shop/web: connection afd-1 is Pending; approve it with: az network private-endpoint-connection approve --id '${PLS_ID}/privateEndpointConnections/afd-1' --description 'm'\\''1'`,
    );
  });

  it('auto-approval: records the approved name in an event and reads True; a foreign endpoint with the message is reported', () => {
    const approved = found([connection('afd-1', 'Approved', 'm-1'), connection('copy', 'Pending', 'm-1', customerEndpoint)]);
    const observation = privateLinkObservation(
      base(approved, {
        requests: [request('shop/web', 'm-1')],
        approval: {
          approved: ['afd-1'],
          refused: [{ connection: connection('copy', 'Pending', 'm-1', customerEndpoint), kind: 'not-front-door', why: 'not Front Door’s; left Pending' }],
          failures: [],
        },
      }),
    );
    expect(observation.events).toEqual([
      {
        type: 'Normal',
        reason: PRIVATE_LINK_EVENT_REASONS.approved,
        note: 'Approved private endpoint connection afd-1 on Private Link Service pls-web: it carries a request message the hub issued',
      },
    ]);
    const condition = conditionOf(observation, CONNECTIONS_APPROVED_CONDITION);
    expect(condition).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.refused });
    expect(condition?.message).toBe(
      'Gateway shop/web: connection afd-1 Approved; connection copy carries a hub request message but not Front Door’s; left Pending',
    );
    // Without the copy it is all approved.
    const clean = privateLinkObservation(
      base(found([connection('afd-1', 'Approved', 'm-1')]), { requests: [request('shop/web', 'm-1')], approval: { approved: [], refused: [], failures: [] } }),
    );
    expect(conditionOf(clean, CONNECTIONS_APPROVED_CONDITION)).toMatchObject({
      status: 'True',
      reason: PRIVATE_LINK_REASONS.approved,
      message: 'Gateway shop/web: connection afd-1 Approved',
    });
    expect(clean.events).toBeUndefined();
  });

  it('a copied message on a second Front Door connection: PossibleImpersonation on the condition, a Warning event, and no approve command', () => {
    const copied = found([connection('afd-a', 'Pending', 'm-1'), connection('afd-b', 'Pending', 'm-1', frontDoorEndpoint(2))]);
    for (const approval of [undefined, { approved: [], refused: [], failures: [] }]) {
      // Manual mode plans for itself; auto mode reports what its plan refused (here: recomputed the same way).
      const refused = approval
        ? {
            ...approval,
            refused: [
              {
                connection: copied.connections[0]!,
                kind: 'impersonation' as const,
                why: "possible impersonation: connections afd-a, afd-b carry the same message and only one can be the hub's; none is approved; left Pending",
              },
              {
                connection: copied.connections[1]!,
                kind: 'impersonation' as const,
                why: "possible impersonation: connections afd-a, afd-b carry the same message and only one can be the hub's; none is approved; left Pending",
              },
            ],
          }
        : undefined;
      const observation = privateLinkObservation(base(copied, { requests: [request('shop/web', 'm-1')], ...(refused ? { approval: refused } : {}) }));
      const condition = conditionOf(observation, CONNECTIONS_APPROVED_CONDITION);
      expect(condition).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.possibleImpersonation });
      expect(condition?.message).not.toContain('az network');
      expect(condition?.message).toContain(
        'Gateway shop/web: connection afd-a is Pending: possible impersonation: connections afd-a, afd-b carry the same message',
      );
      expect(condition?.message).toContain('connection afd-b carries a hub request message but possible impersonation');
      expect(observation.events?.map((e) => [e.type, e.reason, e.note.split(':')[0]])).toEqual([
        ['Warning', PRIVATE_LINK_EVENT_REASONS.possibleImpersonation, 'Left private endpoint connection afd-a on Private Link Service pls-web Pending'],
        ['Warning', PRIVATE_LINK_EVENT_REASONS.possibleImpersonation, 'Left private endpoint connection afd-b on Private Link Service pls-web Pending'],
      ]);
    }
  });

  it('manual mode with an allowlist: a message of a hub not listed gets no approve command, and says why', () => {
    const observation = privateLinkObservation(
      base(found([connection('afd-1', 'Pending', 'm-1')]), {
        requests: [{ ...request('shop/web', 'm-1'), hubIdentity: 'subscription/s/cluster/other' }],
        policy: { allowedHubs: ['subscription/s/cluster/hub'] },
      }),
    );
    const condition = conditionOf(observation, CONNECTIONS_APPROVED_CONDITION);
    expect(condition).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.refused });
    expect(condition?.message).toBe(
      'Gateway shop/web: connection afd-1 is Pending: its message was issued by hub subscription/s/cluster/other, which --private-link-approval-hubs does not list; left Pending',
    );
  });

  it('a refused approval in the node resource group names the lockdown and what to set, and is retried', () => {
    const observation = privateLinkObservation(
      base(found([connection('afd-1', 'Pending', 'm-1')]), {
        requests: [request('shop/web', 'm-1')],
        approval: {
          approved: [],
          refused: [],
          failures: [{ name: 'afd-1', failure: { class: 'terminal', category: 'authorization', status: 403, code: 'AuthorizationFailed', cause: 'denied' } }],
        },
      }),
    );
    const condition = conditionOf(observation, CONNECTIONS_APPROVED_CONDITION);
    expect(condition).toMatchObject({ status: 'False', reason: PRIVATE_LINK_REASONS.approvalFailed });
    expect(condition?.message).toContain(
      'approving connection afd-1 failed (AuthorizationFailed: denied); the service is in the node resource group mc-member-1',
    );
    expect(condition?.message).toContain('service.beta.kubernetes.io/azure-pls-resource-group');
    expect(observation.recheck?.afterMs).toBe(30_000);
  });

  it('one line per Gateway, sorted, and the worst state as the reason: awaiting, rejected and approved side by side', () => {
    const observation = privateLinkObservation(
      base(found([connection('afd-a', 'Approved', 'ma'), connection('afd-b', 'Rejected', 'mb')]), {
        requests: [request('team-c/gw', 'mc'), request('team-a/gw', 'ma'), request('team-b/gw', 'mb')],
        approval: { approved: [], refused: [], failures: [] },
      }),
    );
    const condition = conditionOf(observation, CONNECTIONS_APPROVED_CONDITION);
    expect(condition?.reason).toBe(PRIVATE_LINK_REASONS.rejected);
    expect(condition?.message.split('; ')).toEqual([
      'Gateway team-a/gw: connection afd-a Approved',
      'Gateway team-b/gw: connection afd-b is Rejected, and this agent never approves a connection that someone rejected or removed',
      "Gateway team-c/gw: Front Door's connection has not appeared on Private Link Service pls-web yet",
    ]);
  });
});
