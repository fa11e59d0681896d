import type { CachedInternalServiceExport } from '@fleet-gateway/fleet-hub';
import type { GlobalGateway, ModelBackend } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { AfdRetiredMessages, privateLinkRequestsToIssue, requestsAskedAgain } from './private-link-requests.js';

const PLS_A = '/subscriptions/s/resourceGroups/mc-1/providers/Microsoft.Network/privateLinkServices/pls-a';
const PLS_B = '/subscriptions/s/resourceGroups/mc-2/providers/Microsoft.Network/privateLinkServices/pls-b';
const gateway = { key: 'shop/gw', uid: 'uid-now' };
const now = new Date('2026-12-01T10:00:00.123Z');

type Request = NonNullable<NonNullable<CachedInternalServiceExport['status']>['privateLinkRequests']>[number];
type Connection = NonNullable<NonNullable<CachedInternalServiceExport['spec']>['privateEndpointConnections']>[number];

function exportOf(
  name: string,
  pls: string | undefined,
  requests: Request[] = [],
  member = 'member-1',
  connections: Connection[] = [],
): CachedInternalServiceExport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: { namespace: `fleet-member-${member.replace('member-', '')}`, name },
    spec: {
      ports: [],
      serviceReference: {
        clusterId: member,
        kind: 'Service',
        namespace: 'shop',
        name,
        namespacedName: `shop/${name}`,
        resourceVersion: '1',
        generation: 1,
        uid: 'u',
      },
      ...(pls ? { privateLinkService: { resourceID: pls, location: 'eastus2' } } : {}),
      ...(connections.length ? { privateEndpointConnections: connections } : {}),
    },
    ...(requests.length ? { status: { privateLinkRequests: requests } } : {}),
  } as CachedInternalServiceExport;
}

function backend(name: string, connectivity: ModelBackend['connectivity'], requestMessage?: string, member = 'member-1'): ModelBackend {
  return {
    key: `shop/${name}:80`,
    namespace: 'shop',
    name,
    port: 80,
    connectivity,
    probe: { path: '/', protocol: 'Http', requestType: 'HEAD', intervalSeconds: 100 },
    latencySensitivityMilliseconds: 50,
    origins: [
      {
        cluster: member,
        state: 'known',
        connectivity,
        address: '10.0.0.1',
        privateLink: {
          resourceId: 'x',
          location: 'eastus2',
          connectionState: requestMessage ? 'Pending' : 'NotRequested',
          ...(requestMessage ? { requestMessage } : {}),
        },
        source: { kind: 'InternalServiceExport', namespace: `fleet-member-${member.replace('member-', '')}`, name },
      },
    ],
    source: { kind: 'ServiceImport', namespace: 'shop', name },
  };
}

const model = (backends: ModelBackend[]) => ({ backends }) as unknown as GlobalGateway;
const counter = (keys: string[] = []) => {
  let n = 0;
  return (key: string) => {
    keys.push(key);
    return `m${++n}`;
  };
};
const HUB = 'subscription/s/cluster/hub';

describe('privateLinkRequestsToIssue', () => {
  it('issues one message per PLS: exports behind the same PLS share it, another PLS gets its own', () => {
    const exports = new Map([
      ['fleet-member-1/pay', exportOf('pay', PLS_A)],
      ['fleet-member-1/refund', exportOf('refund', PLS_A.toUpperCase())],
      ['fleet-member-1/cart', exportOf('cart', PLS_B)],
    ]);
    const issued = privateLinkRequestsToIssue(
      model([backend('pay', 'private-link'), backend('refund', 'private-link'), backend('cart', 'private-link')]),
      gateway,
      (k) => exports.get(k),
      [],
      counter(),
      now,
    );
    expect(issued.map((i) => [i.export.metadata.name, i.request.requestMessage])).toEqual([
      ['pay', 'm1'],
      ['refund', 'm1'],
      ['cart', 'm2'],
    ]);
    expect(issued[0]?.request).toEqual({
      gateway: 'shop/gw',
      gatewayUID: 'uid-now',
      requestMessage: 'm1',
      issuedTime: '2026-12-01T10:00:00Z',
      privateLinkServiceID: PLS_A,
    });
    expect(issued[1]?.request.privateLinkServiceID).toBe(PLS_A.toUpperCase());
  });

  it('reuses a message this Gateway already issued for the PLS on another export, and skips exports that have theirs', () => {
    const withMessage = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'kept', privateLinkServiceID: PLS_A }]);
    const exports = new Map([
      ['fleet-member-1/pay', withMessage],
      ['fleet-member-1/refund', exportOf('refund', PLS_A)],
    ]);
    const issued = privateLinkRequestsToIssue(
      model([backend('pay', 'private-link', 'kept'), backend('refund', 'private-link')]),
      gateway,
      (k) => exports.get(k),
      [withMessage],
      counter(),
      now,
    );
    expect(issued.map((i) => [i.export.metadata.name, i.request.requestMessage])).toEqual([['refund', 'kept']]);
  });

  it('never reuses the message of an earlier Gateway of the same name (another UID): the new profile gets a new connection', () => {
    const stale = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-old', requestMessage: 'old' }]);
    const issued = privateLinkRequestsToIssue(model([backend('pay', 'private-link')]), gateway, () => stale, [stale], counter(), now);
    expect(issued.map((i) => i.request.requestMessage)).toEqual(['m1']);
  });

  it('issues nothing for public backends, unknown exports or exports without a PLS', () => {
    const exports = new Map([['fleet-member-1/web', exportOf('web', undefined)]]);
    const issued = privateLinkRequestsToIssue(
      model([backend('web', 'public'), backend('web', 'private-link'), backend('ghost', 'private-link')]),
      gateway,
      (k) => exports.get(k),
      [],
      counter(),
      now,
    );
    expect(issued).toEqual([]);
  });

  it('never shares a message across members: a member reporting another member’s PLS id gets its own', () => {
    const exports = new Map([
      [
        'fleet-member-1/pay',
        exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'of-member-1', privateLinkServiceID: PLS_A }]),
      ],
      ['fleet-member-2/pay', exportOf('pay', PLS_A, [], 'member-2')],
    ]);
    const keys: string[] = [];
    const issued = privateLinkRequestsToIssue(
      model([backend('pay', 'private-link', 'of-member-1'), backend('pay', 'private-link', undefined, 'member-2')]),
      gateway,
      (k) => exports.get(k),
      [exports.get('fleet-member-1/pay')!],
      counter(keys),
      now,
    );
    expect(issued.map((i) => [i.export.metadata.namespace, i.request.requestMessage])).toEqual([['fleet-member-2', 'm1']]);
    expect(keys).toEqual([`fleet-member-2|${PLS_A.toLowerCase()}|`]);
  });

  it('a message the member reports Rejected or Disconnected (and nowhere Approved) is replaced by a new one, never reused', () => {
    for (const status of ['Rejected', 'Disconnected'] as const) {
      const retired = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'old', privateLinkServiceID: PLS_A }], 'member-1', [
        { name: 'c1', status, description: 'old' },
      ]);
      const sibling = exportOf('refund', PLS_A);
      const exports = new Map([
        ['fleet-member-1/pay', retired],
        ['fleet-member-1/refund', sibling],
      ]);
      const keys: string[] = [];
      const issued = privateLinkRequestsToIssue(
        model([backend('pay', 'private-link', 'old'), backend('refund', 'private-link')]),
        gateway,
        (k) => exports.get(k),
        [retired],
        counter(keys),
        now,
      );
      expect(issued.map((i) => [i.export.metadata.name, i.request.requestMessage])).toEqual([
        ['pay', 'm1'],
        ['refund', 'm1'],
      ]);
      // The cache key names the message replaced, so a cached message is never the retired one.
      expect(keys).toEqual([`fleet-member-1|${PLS_A.toLowerCase()}|old`]);
    }
    // A rejected copy beside the Approved connection keeps the message.
    const working = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'ok', privateLinkServiceID: PLS_A }], 'member-1', [
      { name: 'c1', status: 'Approved', description: 'ok' },
      { name: 'c2', status: 'Rejected', description: 'ok' },
    ]);
    expect(privateLinkRequestsToIssue(model([backend('pay', 'private-link', 'ok')]), gateway, () => working, [working], counter(), now)).toEqual([]);
  });

  it('an entry without its binding (PLS, this hub) is written again with the same message and issue time', () => {
    const legacy = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'kept', issuedTime: '2026-11-01T00:00:00Z' }]);
    const issued = privateLinkRequestsToIssue(model([backend('pay', 'private-link', 'kept')]), gateway, () => legacy, [legacy], counter(), now, {
      hubIdentity: HUB,
    });
    expect(issued.map((i) => i.request)).toEqual([
      { gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'kept', issuedTime: '2026-11-01T00:00:00Z', privateLinkServiceID: PLS_A, hubIdentity: HUB },
    ]);
    const bound = exportOf('pay', PLS_A, [issued[0]!.request]);
    expect(
      privateLinkRequestsToIssue(model([backend('pay', 'private-link', 'kept')]), gateway, () => bound, [bound], counter(), now, { hubIdentity: HUB }),
    ).toEqual([]);
  });
});

describe('requestsAskedAgain', () => {
  const origin = (name: string, action: 'created' | 'unchanged' | 'updated', exportName: string) => ({
    kind: 'origin' as const,
    name,
    action,
    provenance: [
      { kind: 'HTTPRoute' as const, namespace: 'shop', name: 'r' },
      { kind: 'InternalServiceExport' as const, namespace: 'fleet-member-1', name: exportName },
    ],
  });

  it('marks the current request of each export whose origin this reconcile created, with the time; nothing else', () => {
    const bound = { gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'm', privateLinkServiceID: PLS_A, hubIdentity: HUB };
    const exports = new Map([
      ['fleet-member-1/pay', exportOf('pay', PLS_A, [bound])],
      ['fleet-member-1/cart', exportOf('cart', PLS_A, [bound])],
      ['fleet-member-1/legacy', exportOf('legacy', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'm' }])],
    ]);
    const report = {
      resources: [
        origin('o-pay', 'created', 'pay'),
        origin('o-cart', 'unchanged', 'cart'),
        origin('o-legacy', 'created', 'legacy'),
        origin('o-ghost', 'created', 'ghost'),
      ],
    };
    const marked = requestsAskedAgain(report, gateway, (k) => exports.get(k), now, { hubIdentity: HUB });
    expect(marked.map((m) => [m.export.metadata.name, m.request])).toEqual([['pay', { ...bound, askedTime: '2026-12-01T10:00:00Z' }]]);
  });
});

describe('AfdRetiredMessages', () => {
  const originReport = (privateLinkStatus: string | undefined, exportName = 'pay') => ({
    resources: [
      {
        kind: 'origin' as const,
        name: `o-${exportName}`,
        action: 'unchanged' as const,
        ...(privateLinkStatus ? { privateLinkStatus } : {}),
        provenance: [{ kind: 'InternalServiceExport' as const, namespace: 'fleet-member-1', name: exportName }],
      },
    ],
  });

  it('a message whose origin AFD reports Rejected or Disconnected (the connection deleted on the service) is replaced, though the member lists nothing', () => {
    const bound = { gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'gone', privateLinkServiceID: PLS_A, hubIdentity: HUB };
    const ise = exportOf('pay', PLS_A, [bound]);
    const exports = new Map([['fleet-member-1/pay', ise]]);
    for (const status of ['Rejected', 'Disconnected']) {
      const retired = new AfdRetiredMessages();
      retired.record(gateway, originReport(status), (k) => exports.get(k));
      const keys: string[] = [];
      const issued = privateLinkRequestsToIssue(model([backend('pay', 'private-link', 'gone')]), gateway, (k) => exports.get(k), [ise], counter(keys), now, {
        hubIdentity: HUB,
        retiredByAfd: retired.of(gateway),
      });
      expect(issued.map((i) => i.request.requestMessage)).toEqual(['m1']);
      expect(keys).toEqual([`fleet-member-1|${PLS_A.toLowerCase()}|gone`]);
    }
    // Pending, Approved or no word from AFD: the message stands; another Gateway's record is not this one's.
    for (const status of ['Pending', 'Approved', undefined]) {
      const retired = new AfdRetiredMessages();
      retired.record(gateway, originReport(status), (k) => exports.get(k));
      expect(
        privateLinkRequestsToIssue(model([backend('pay', 'private-link', 'gone')]), gateway, (k) => exports.get(k), [ise], counter(), now, {
          hubIdentity: HUB,
          retiredByAfd: retired.of(gateway),
        }),
      ).toEqual([]);
    }
    const retired = new AfdRetiredMessages();
    retired.record(gateway, originReport('Rejected'), (k) => exports.get(k));
    expect(retired.of({ key: 'shop/other', uid: 'uid-other' })('fleet-member-1/pay', 'gone')).toBe(false);
    // The new message is not retired by what AFD said of the old one.
    expect(retired.of(gateway)('fleet-member-1/pay', 'm1')).toBe(false);
    retired.forget(gateway);
    expect(retired.of(gateway)('fleet-member-1/pay', 'gone')).toBe(false);
  });
});
