import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareText } from '@fleet-gateway/api-types';
import { decideHostnameClaims, hostnameClaimKey, hostnamesContest, type ClaimStanding, type HostnameClaim } from './hostname-claims.js';

const STANDINGS: readonly ClaimStanding[] = ['held', 'held-before', 'claimed'];

/** Claims of up to 6 Gateways on a few hostnames, one claim per (Gateway, hostname), as the informer store yields them. */
function claimsArbitrary(hostnames: readonly string[]) {
  const claim = fc.record({
    gateway: fc.constantFrom('a/one', 'a/two', 'b/one', 'b/two', 'c/one', 'c/two'),
    hostname: fc.constantFrom(...hostnames),
    createdAt: fc.option(fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'), { nil: undefined }),
    standing: fc.constantFrom(...STANDINGS),
  });
  return fc.uniqueArray(claim, { selector: (c) => `${c.gateway}|${c.hostname}`, maxLength: 14 }).map((claims) => {
    // A Gateway has one creation time, whatever hostname it claims.
    const created = new Map(claims.map((c) => [c.gateway, c.createdAt]));
    return claims.map(({ createdAt: _ignored, ...c }): HostnameClaim => {
      const createdAt = created.get(c.gateway);
      return { ...c, listeners: ['l'], ...(createdAt ? { createdAt } : {}) };
    });
  });
}

const EXACT = ['shop.contoso.com', 'www.contoso.com', 'api.fabrikam.com'];
const WITH_WILDCARDS = [...EXACT, '*.contoso.com', 'a.b.contoso.com', '*.b.contoso.com'];

const holdersOf = (claims: readonly HostnameClaim[]) => {
  const lostTo = decideHostnameClaims(claims);
  return claims.filter((c) => !lostTo.has(c));
};
const ids = (claims: readonly HostnameClaim[]) => claims.map((c) => `${c.gateway}|${c.hostname}`).sort();

describe('decideHostnameClaims', () => {
  it('exactly one holder per hostname when no wildcard is claimed, whatever the order of the claims', () => {
    fc.assert(
      fc.property(claimsArbitrary(EXACT), fc.infiniteStream(fc.nat()), (claims, keys) => {
        const holders = holdersOf(claims);
        for (const hostname of new Set(claims.map((c) => c.hostname))) expect(holders.filter((h) => h.hostname === hostname)).toHaveLength(1);
        const order = claims
          .map((c) => ({ c, k: keys.next().value as number }))
          .sort((x, y) => x.k - y.k)
          .map((x) => x.c);
        expect(ids(holdersOf(order))).toEqual(ids(holders));
      }),
    );
  });

  it('no two holders of different Gateways contest, and each loser lost to a holder that contests it (wildcards too)', () => {
    fc.assert(
      fc.property(claimsArbitrary(WITH_WILDCARDS), (claims) => {
        const lostTo = decideHostnameClaims(claims);
        const holders = claims.filter((c) => !lostTo.has(c));
        for (const a of holders) for (const b of holders) if (a.gateway !== b.gateway) expect(hostnamesContest(a.hostname, b.hostname)).toBe(false);
        for (const [loser, holder] of lostTo) {
          expect(holders).toContain(holder);
          expect([holder.gateway !== loser.gateway, hostnamesContest(holder.hostname, loser.hostname)]).toEqual([true, true]);
        }
      }),
    );
  });

  it('when the holder lets go, the next claimant by standing, age and name gets the hostname; other hostnames keep their holders', () => {
    fc.assert(
      fc.property(claimsArbitrary(EXACT), (claims) => {
        fc.pre(claims.length > 0);
        const holders = holdersOf(claims);
        const [released] = holders;
        if (!released) return;
        const rest = claims.filter((c) => c !== released);
        const next = rest
          .filter((c) => c.hostname === released.hostname)
          .sort(
            (a, b) =>
              STANDINGS.indexOf(a.standing) - STANDINGS.indexOf(b.standing) ||
              compareText(a.createdAt ?? '\uffff', b.createdAt ?? '\uffff') ||
              compareText(a.gateway, b.gateway),
          )[0];
        const after = holdersOf(rest);
        expect(ids(after.filter((h) => h.hostname === released.hostname))).toEqual(next ? ids([next]) : []);
        expect(ids(after.filter((h) => h.hostname !== released.hostname))).toEqual(ids(holders.filter((h) => h.hostname !== released.hostname)));
      }),
    );
  });

  it('a holder whose status says so keeps its hostname against any new claim, however old the claiming Gateway', () => {
    fc.assert(
      fc.property(claimsArbitrary(WITH_WILDCARDS), fc.constantFrom(...WITH_WILDCARDS), (claims, hostname) => {
        // The hub's state after a decision: holders carry `held`, losers `claimed`.
        const lostTo = decideHostnameClaims(claims);
        const settled = claims.map((c): HostnameClaim => ({ ...c, standing: lostTo.has(c) ? 'claimed' : 'held' }));
        const holders = ids(holdersOf(settled));
        expect(holders).toEqual(ids(claims.filter((c) => !lostTo.has(c))));
        const newcomer: HostnameClaim = { gateway: 'z/oldest', hostname, listeners: ['l'], createdAt: '2000-01-01T00:00:00Z', standing: 'claimed' };
        expect(ids(holdersOf([...settled, newcomer]).filter((h) => h !== newcomer))).toEqual(holders);
      }),
    );
  });
});

describe('hostnameClaimKey and hostnamesContest', () => {
  it('a wildcard and its first-level subdomains share a key and contest; other pairs do not', () => {
    expect([hostnameClaimKey('*.contoso.com'), hostnameClaimKey('Shop.Contoso.com'), hostnameClaimKey('localhost')]).toEqual([
      '*.contoso.com',
      '*.contoso.com',
      'localhost',
    ]);
    expect(hostnamesContest('*.contoso.com', 'shop.contoso.com')).toBe(true);
    expect(hostnamesContest('shop.contoso.com', 'SHOP.contoso.com')).toBe(true);
    expect(hostnamesContest('*.contoso.com', 'a.b.contoso.com')).toBe(false);
    expect(hostnamesContest('*.contoso.com', '*.b.contoso.com')).toBe(false);
    expect(hostnamesContest('a.contoso.com', 'b.contoso.com')).toBe(false);
    expect(hostnamesContest('contoso.com', '*.contoso.com')).toBe(false);
  });
});
