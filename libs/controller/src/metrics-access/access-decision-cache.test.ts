import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccessDecisionCache, tokenCacheKey } from './access-decision-cache.js';

describe('tokenCacheKey', () => {
  it('holds a hash of the token, never the token, and tells verbs and paths apart', () => {
    const key = tokenCacheKey('secret-token-value', 'get', '/metrics');
    expect(key).not.toContain('secret-token-value');
    expect(key).toMatch(/^[0-9a-f]{64} get \/metrics$/);
    expect(tokenCacheKey('secret-token-value', 'get', '/metrics')).toBe(key);
    expect(tokenCacheKey('other-token', 'get', '/metrics')).not.toBe(key);
    expect(tokenCacheKey('secret-token-value', 'head', '/metrics')).not.toBe(key);
  });
});

describe('AccessDecisionCache', () => {
  it("answers until each entry's own time to live has passed, then forgets it", () => {
    const cache = new AccessDecisionCache<string>(10);
    cache.set('allowed', 'yes', 60_000, 0);
    cache.set('denied', 'no', 30_000, 0);
    expect(cache.get('allowed', 29_999)).toBe('yes');
    expect(cache.get('denied', 29_999)).toBe('no');
    expect(cache.get('denied', 30_000)).toBeUndefined();
    expect(cache.get('allowed', 59_999)).toBe('yes');
    expect(cache.get('allowed', 60_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when full, drops expired entries first, then the oldest one', () => {
    const cache = new AccessDecisionCache<number>(2);
    cache.set('a', 1, 100, 0);
    cache.set('b', 2, 10, 0);
    cache.set('c', 3, 100, 50); // b has expired: it goes, a stays
    expect([cache.get('a', 50), cache.get('b', 50), cache.get('c', 50)]).toEqual([1, undefined, 3]);
    cache.set('d', 4, 100, 60); // nothing expired: the oldest (a) goes
    expect([cache.get('a', 60), cache.get('c', 60), cache.get('d', 60)]).toEqual([undefined, 3, 4]);
  });

  it('never holds more than its bound, and the latest set of a key always answers before it expires', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.record({
            key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'),
            ttl: fc.integer({ min: 1, max: 100 }),
            advance: fc.integer({ min: 0, max: 30 }),
          }),
          { maxLength: 60 },
        ),
        (bound, operations) => {
          const cache = new AccessDecisionCache<number>(bound);
          let now = 0;
          operations.forEach(({ key, ttl, advance }, index) => {
            now += advance;
            cache.set(key, index, ttl, now);
            expect(cache.size).toBeLessThanOrEqual(bound);
            expect(cache.get(key, now)).toBe(index);
            expect(cache.get(key, now + ttl)).toBeUndefined();
          });
        },
      ),
    );
  });
});
