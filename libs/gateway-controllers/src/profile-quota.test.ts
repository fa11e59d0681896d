import { describe, expect, it } from 'vitest';
import type { CachedGateway } from './gateway-api-resources.js';
import { GATEWAY_FINALIZER } from './gateway-finalizer.js';
import { AFD_PROFILES_PER_SUBSCRIPTION, profileQuotaVerdict } from './profile-quota.js';

function gateway(name: string, created: string, extra: { holds?: boolean; deleting?: boolean; namespace?: string } = {}): CachedGateway {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: {
      namespace: extra.namespace ?? 'team',
      name,
      uid: `uid-${extra.namespace ?? 'team'}-${name}`,
      creationTimestamp: created,
      ...(extra.holds ? { finalizers: [GATEWAY_FINALIZER] } : {}),
      ...(extra.deleting ? { deletionTimestamp: '2026-06-01T00:00:00Z' } : {}),
    },
    spec: { gatewayClassName: 'azure-fleet-afd', listeners: [] },
  } as CachedGateway;
}

const within = (ours: CachedGateway[], g: CachedGateway, quota: number) => profileQuotaVerdict(ours, g, quota).within;

describe('AFD profile quota', () => {
  it('defaults to the documented 500 profiles per subscription', () => {
    expect(AFD_PROFILES_PER_SUBSCRIPTION).toBe(500);
  });

  it('the Gateways beyond the quota, oldest first, are refused with a message naming the quota; the older ones are not', () => {
    const a = gateway('a', '2026-01-01T00:00:00Z');
    const b = gateway('b', '2026-01-02T00:00:00Z');
    const c = gateway('c', '2026-01-03T00:00:00Z');
    const ours = [c, a, b];
    expect([a, b, c].map((g) => within(ours, g, 2))).toEqual([true, true, false]);
    expect(profileQuotaVerdict(ours, c, 2)).toEqual({
      within: false,
      message:
        'the AFD profile quota of 2 Standard/Premium profiles per subscription is reached: 0 Gateways of this hub hold a profile and this one is number 3 in line (oldest first); nothing is written to Azure for it until a Gateway ahead of it is deleted or the quota is raised',
    });
  });

  it('equal ages are ordered by namespace, then name, whatever the order of the cache', () => {
    const at = '2026-01-01T00:00:00Z';
    const [x1, a2, a1] = [gateway('x', at, { namespace: 'ns-1' }), gateway('a', at, { namespace: 'ns-2' }), gateway('a', at, { namespace: 'ns-1' })];
    for (const ours of [
      [x1, a2, a1],
      [a1, a2, x1],
      [a2, x1, a1],
    ])
      expect([a1, x1, a2].map((g) => within(ours, g, 2))).toEqual([true, true, false]);
  });

  it('a Gateway that holds a profile keeps it, even when newer than one waiting; holders use slots first', () => {
    const old = gateway('old', '2026-01-01T00:00:00Z');
    const holder = gateway('holder', '2026-02-01T00:00:00Z', { holds: true });
    const ours = [old, holder];
    expect(within(ours, holder, 1)).toBe(true);
    expect(within(ours, old, 1)).toBe(false);
    expect(within(ours, old, 2)).toBe(true);
  });

  it('a Gateway being deleted frees its place once it holds no profile', () => {
    const gone = gateway('gone', '2026-01-01T00:00:00Z', { deleting: true });
    const leaving = gateway('leaving', '2026-01-01T00:00:00Z', { deleting: true, holds: true });
    const next = gateway('next', '2026-01-02T00:00:00Z');
    expect(within([gone, next], next, 1)).toBe(true);
    expect(within([leaving, next], next, 1)).toBe(false);
  });
});
