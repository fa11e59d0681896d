import type { CachedInternalServiceExport } from '@fleet-gateway/fleet-hub';
import type { GlobalGateway, ModelBackend } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { privateLinkRequestsToIssue } from './private-link-requests.js';

const PLS_A = '/subscriptions/s/resourceGroups/mc-1/providers/Microsoft.Network/privateLinkServices/pls-a';
const PLS_B = '/subscriptions/s/resourceGroups/mc-2/providers/Microsoft.Network/privateLinkServices/pls-b';
const gateway = { key: 'shop/gw', uid: 'uid-now' };
const now = new Date('2026-12-01T10:00:00.123Z');

function exportOf(name: string, pls: string | undefined, requests: { gateway: string; gatewayUID?: string; requestMessage: string }[] = []): CachedInternalServiceExport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: { namespace: 'fleet-member-1', name },
    spec: {
      ports: [],
      serviceReference: { clusterId: 'member-1', kind: 'Service', namespace: 'shop', name, namespacedName: `shop/${name}`, resourceVersion: '1', generation: 1, uid: 'u' },
      ...(pls ? { privateLinkService: { resourceID: pls, location: 'eastus2' } } : {}),
    },
    ...(requests.length ? { status: { privateLinkRequests: requests } } : {}),
  } as CachedInternalServiceExport;
}

function backend(name: string, connectivity: ModelBackend['connectivity'], requestMessage?: string): ModelBackend {
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
        cluster: 'member-1',
        state: 'known',
        connectivity,
        address: '10.0.0.1',
        privateLink: { resourceId: 'x', location: 'eastus2', connectionState: requestMessage ? 'Pending' : 'NotRequested', ...(requestMessage ? { requestMessage } : {}) },
        source: { kind: 'InternalServiceExport', namespace: 'fleet-member-1', name },
      },
    ],
    source: { kind: 'ServiceImport', namespace: 'shop', name },
  };
}

const model = (backends: ModelBackend[]) => ({ backends }) as unknown as GlobalGateway;
const counter = () => {
  let n = 0;
  return (_pls: string) => `m${++n}`;
};

describe('privateLinkRequestsToIssue', () => {
  it('issues one message per PLS: exports behind the same PLS share it, another PLS gets its own', () => {
    const exports = new Map([
      ['fleet-member-1/pay', exportOf('pay', PLS_A)],
      ['fleet-member-1/refund', exportOf('refund', PLS_A.toUpperCase())],
      ['fleet-member-1/cart', exportOf('cart', PLS_B)],
    ]);
    const issued = privateLinkRequestsToIssue(model([backend('pay', 'private-link'), backend('refund', 'private-link'), backend('cart', 'private-link')]), gateway, (k) => exports.get(k), [], counter(), now);
    expect(issued.map((i) => [i.export.metadata.name, i.request.requestMessage])).toEqual([['pay', 'm1'], ['refund', 'm1'], ['cart', 'm2']]);
    expect(issued[0]?.request).toEqual({ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'm1', issuedTime: '2026-12-01T10:00:00Z' });
  });

  it('reuses a message this Gateway already issued for the PLS on another export, and skips exports that have theirs', () => {
    const withMessage = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-now', requestMessage: 'kept' }]);
    const exports = new Map([
      ['fleet-member-1/pay', withMessage],
      ['fleet-member-1/refund', exportOf('refund', PLS_A)],
    ]);
    const issued = privateLinkRequestsToIssue(model([backend('pay', 'private-link', 'kept'), backend('refund', 'private-link')]), gateway, (k) => exports.get(k), [withMessage], counter(), now);
    expect(issued.map((i) => [i.export.metadata.name, i.request.requestMessage])).toEqual([['refund', 'kept']]);
  });

  it('never reuses the message of an earlier Gateway of the same name (another UID): the new profile gets a new connection', () => {
    const stale = exportOf('pay', PLS_A, [{ gateway: 'shop/gw', gatewayUID: 'uid-old', requestMessage: 'old' }]);
    const issued = privateLinkRequestsToIssue(model([backend('pay', 'private-link')]), gateway, () => stale, [stale], counter(), now);
    expect(issued.map((i) => i.request.requestMessage)).toEqual(['m1']);
  });

  it('issues nothing for public backends, unknown exports or exports without a PLS', () => {
    const exports = new Map([['fleet-member-1/web', exportOf('web', undefined)]]);
    const issued = privateLinkRequestsToIssue(model([backend('web', 'public'), backend('web', 'private-link'), backend('ghost', 'private-link')]), gateway, (k) => exports.get(k), [], counter(), now);
    expect(issued).toEqual([]);
  });
});
