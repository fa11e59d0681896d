import { describe, expect, it } from 'vitest';
import { StatusWriteBackoff } from './status-write-backoff.js';

describe('StatusWriteBackoff', () => {
  it('backs off one object exponentially up to the cap, leaving every other object due', () => {
    const backoff = new StatusWriteBackoff({ baseMs: 1_000, maxMs: 4_000 });
    expect(backoff.failed('gw|HTTPRoute|a', 0)).toBe(1_000);
    expect(backoff.isDue('gw|HTTPRoute|a', 999)).toBe(false);
    expect(backoff.isDue('gw|HTTPRoute|b', 0)).toBe(true);
    expect(backoff.isDue('gw|HTTPRoute|a', 1_000)).toBe(true);
    expect([backoff.failed('gw|HTTPRoute|a', 1_000), backoff.failed('gw|HTTPRoute|a', 3_000), backoff.failed('gw|HTTPRoute|a', 7_000)]).toEqual([
      2_000, 4_000, 4_000,
    ]);
    backoff.succeeded('gw|HTTPRoute|a');
    expect(backoff.isDue('gw|HTTPRoute|a', 7_001)).toBe(true);
    expect(backoff.failed('gw|HTTPRoute|a', 8_000)).toBe(1_000);
  });

  it('says when a Gateway’s first failed write is due, forgets writes no longer tried, and forgets a Gateway', () => {
    const backoff = new StatusWriteBackoff({ baseMs: 1_000, maxMs: 60_000 });
    expect(backoff.nextDueIn('gw|', 0)).toBeUndefined();
    backoff.failed('gw|HTTPRoute|a', 0);
    backoff.failed('gw|HTTPRoute|a', 0);
    backoff.failed('gw|InternalServiceExport|e', 500);
    backoff.failed('other|HTTPRoute|a', 0);
    expect(backoff.nextDueIn('gw|', 600)).toBe(900);
    // The export was due at 1,500 and not tried again (gone): forgotten; the route is due at 2,000.
    expect(backoff.nextDueIn('gw|', 1_600)).toBe(400);
    expect(backoff.isDue('gw|InternalServiceExport|e', 0)).toBe(true);
    backoff.forget('gw|');
    expect(backoff.nextDueIn('gw|', 0)).toBeUndefined();
    expect(backoff.nextDueIn('other|', 0)).toBe(1_000);
  });
});
