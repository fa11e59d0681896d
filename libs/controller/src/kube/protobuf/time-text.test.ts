import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secondsText } from './time-text.js';

const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);
// 0000-01-01T00:00:00Z (Date.UTC reads years 0–99 as 1900–1999) and 9999-12-31T23:59:59Z.
const firstSecond = new Date('0000-01-01T00:00:00Z').getTime() / 1000;
const lastSecond = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

describe('secondsText', () => {
  it('writes what Date#toISOString writes, for any second of years 0000 to 9999', () => {
    expect(secondsText(firstSecond)).toBe('0000-01-01T00:00:00');
    expect(secondsText(lastSecond)).toBe('9999-12-31T23:59:59');
    fc.assert(
      fc.property(fc.integer({ min: firstSecond, max: lastSecond }), (seconds) => {
        expect(secondsText(seconds)).toBe(isoSeconds(seconds));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps answering right when seconds that share a cache slot alternate, and across day and year boundaries', () => {
    const base = Date.UTC(2026, 11, 31, 23, 59, 0) / 1000;
    const seconds = [base, base + 256, base + 512, base + 59, base + 60, base + 61, base - 86_400, base + 256, base];
    for (let round = 0; round < 3; round++) {
      for (const second of seconds) expect(secondsText(second)).toBe(isoSeconds(second));
    }
    expect(secondsText(base + 60)).toBe('2027-01-01T00:00:00');
    expect(secondsText(0)).toBe('1970-01-01T00:00:00');
    expect(secondsText(-1)).toBe('1969-12-31T23:59:59');
  });
});
