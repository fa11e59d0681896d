import type { Gateway, GatewayListener } from '@fleet-gateway/api-types';
import { describe, expect, it } from 'vitest';
import { listenerConflicts } from './listener-conflicts.js';

function gateway(namespacedName: string, created: string | undefined, listeners: GatewayListener[]): Gateway {
  const [namespace, name] = namespacedName.split('/');
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { namespace, name, ...(created ? { creationTimestamp: created } : {}) },
    spec: { gatewayClassName: 'azure-fleet-afd', listeners },
  };
}

const http = (name: string, hostname?: string, port = 80): GatewayListener => ({ name, protocol: 'HTTP', port, ...(hostname ? { hostname } : {}) });
const ours = gateway('store/edge', '2026-01-02T00:00:00Z', [http('shop', 'shop.example.com')]);

describe('listenerConflicts', () => {
  it('gives a hostname to the older Gateway, whatever the protocol it serves it on', () => {
    const older = gateway('web/front', '2026-01-01T00:00:00Z', [{ name: 'tls', protocol: 'HTTPS', port: 443, hostname: 'shop.example.com' }]);
    expect(listenerConflicts(ours, [older])).toEqual([
      'hostname shop.example.com is already served by listener tls of Gateway web/front, which is older; AFD serves a custom domain from one profile only',
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
