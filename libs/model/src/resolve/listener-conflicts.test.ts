import type { Gateway, GatewayListener } from '@fleet-gateway/api-types';
import { describe, expect, it } from 'vitest';
import { listenerConflicts } from './listener-conflicts.js';

function gateway(namespacedName: string, created: string | undefined, listeners: GatewayListener[], status?: Gateway['status'], generation = 1): Gateway {
  const [namespace, name] = namespacedName.split('/');
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { namespace, name, generation, ...(created ? { creationTimestamp: created } : {}) },
    spec: { gatewayClassName: 'azure-fleet-afd', listeners },
    ...(status ? { status } : {}),
  };
}

const http = (name: string, hostname?: string, port = 80): GatewayListener => ({ name, protocol: 'HTTP', port, ...(hostname ? { hostname } : {}) });
const ours = gateway('store/edge', '2026-01-02T00:00:00Z', [http('shop', 'shop.example.com')]);
/** The listener status this controller writes on a listener that holds its hostname. */
const holding = (listener: string, observedGeneration: number): Gateway['status'] => ({
  listeners: [
    {
      name: listener,
      attachedRoutes: 0,
      supportedKinds: [],
      conditions: [{ type: 'Conflicted', status: 'False', reason: 'NoConflicts', message: '', lastTransitionTime: '2026-01-03T00:00:00Z', observedGeneration }],
    },
  ],
});

describe('listenerConflicts', () => {
  it('gives a hostname to the older Gateway, whatever the protocol it serves it on, and names the holder', () => {
    const older = gateway('web/front', '2026-01-01T00:00:00Z', [{ name: 'tls', protocol: 'HTTPS', port: 443, hostname: 'shop.example.com' }]);
    expect(listenerConflicts(ours, [older])).toEqual([
      'hostname shop.example.com is held by Gateway web/front (listener tls), which claimed it first; AFD serves a custom domain from one profile only, so this listener gets it when that Gateway lets it go',
    ]);
    expect(listenerConflicts(older, [ours])).toEqual([undefined]);
  });

  it('breaks a tie in age by namespace/name, and counts a Gateway without a creation time as the newest', () => {
    const sameAge = gateway('a/first', '2026-01-02T00:00:00Z', [http('x', 'shop.example.com')]);
    expect(listenerConflicts(ours, [sameAge])[0]).toContain('Gateway a/first');
    expect(listenerConflicts(sameAge, [ours])).toEqual([undefined]);
    const undated = gateway('a/undated', undefined, [http('x', 'shop.example.com')]);
    expect(listenerConflicts(ours, [undated])).toEqual([undefined]);
    expect(listenerConflicts(undated, [ours])[0]).toContain('Gateway store/edge');
  });

  it('leaves the hostname with the Gateway whose status says it holds it, when an older Gateway claims it later', () => {
    const holder = gateway('store/edge', '2026-01-02T00:00:00Z', [http('shop', 'shop.example.com')], holding('shop', 1));
    const older = gateway('web/front', '2026-01-01T00:00:00Z', [http('www', 'www.example.com'), http('late', 'shop.example.com')], undefined, 2);
    expect(listenerConflicts(older, [holder])).toEqual([undefined, expect.stringContaining('held by Gateway store/edge (listener shop)')]);
    expect(listenerConflicts(holder, [older])).toEqual([undefined]);
    // A holder whose spec changed since its status was written keeps the hostname from a newcomer too.
    const edited = gateway('store/edge', '2026-01-02T00:00:00Z', [http('shop', 'shop.example.com'), http('more', 'more.example.com')], holding('shop', 1), 2);
    expect(listenerConflicts(older, [edited])[1]).toContain('Gateway store/edge');
  });

  it('a wildcard hostname and its first-level subdomains conflict across Gateways; deeper subdomains do not', () => {
    const wildcard = gateway('web/front', '2026-01-01T00:00:00Z', [http('any', '*.example.com')]);
    const deeper = gateway('web/deep', '2026-01-03T00:00:00Z', [http('deep', 'a.b.example.com')]);
    expect(listenerConflicts(ours, [wildcard])).toEqual([
      'hostname shop.example.com overlaps *.example.com, held by Gateway web/front (listener any), which claimed it first; AFD keeps a wildcard domain and its first-level subdomains in one profile, so this listener gets it when that Gateway lets go',
    ]);
    expect(listenerConflicts(deeper, [wildcard])).toEqual([undefined]);
    expect(listenerConflicts(wildcard, [ours, deeper])).toEqual([undefined]);
  });

  it('ignores listeners that are never served, listeners without a hostname, and the Gateway itself', () => {
    const older = gateway('web/front', '2026-01-01T00:00:00Z', [http('p8080', 'shop.example.com', 8080), http('any')]);
    const anyHost = gateway('store/any', '2026-01-02T00:00:00Z', [http('any')]);
    expect(listenerConflicts(ours, [older, ours])).toEqual([undefined]);
    expect(listenerConflicts(anyHost, [older])).toEqual([undefined]);
  });

  it('still reports listeners of one Gateway with the same protocol, port and hostname', () => {
    const twice = gateway('store/twice', undefined, [http('a', 'x.example.com'), http('b', 'x.example.com'), http('c', 'y.example.com')]);
    expect(listenerConflicts(twice, [])).toEqual([
      'another listener uses HTTP port 80 with hostname x.example.com',
      'another listener uses HTTP port 80 with hostname x.example.com',
      undefined,
    ]);
  });
});
