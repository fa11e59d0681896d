import { describe, expect, it } from 'vitest';
import { parseExportWeight } from './export-weight.js';
import { WEIGHT_ANNOTATION } from './member-names.js';

const weightOf = (value: string) => parseExportWeight({ [WEIGHT_ANNOTATION]: value });

describe('parseExportWeight', () => {
  it('defaults to 1 without the annotation', () => {
    expect(parseExportWeight(undefined)).toEqual({ ok: true, weight: 1 });
    expect(parseExportWeight({ other: '5' })).toEqual({ ok: true, weight: 1 });
  });

  it('takes integers from 0 to 1000, as Go’s strconv.Atoi reads them', () => {
    expect(weightOf('0')).toEqual({ ok: true, weight: 0 });
    expect(weightOf('1000')).toEqual({ ok: true, weight: 1000 });
    expect(weightOf('+7')).toEqual({ ok: true, weight: 7 });
    expect(weightOf('007')).toEqual({ ok: true, weight: 7 });
  });

  it('refuses what is not an integer, with upstream’s message', () => {
    for (const value of ['', ' 5', '5 ', '1.5', '1e3', 'ten', '0x10', '1_000', '99999999999999999999']) {
      expect(weightOf(value)).toEqual({ ok: false, error: `the weight annotation is not a valid integer: ${value}` });
    }
  });

  it('refuses integers out of range, with upstream’s message', () => {
    expect(weightOf('-1')).toEqual({ ok: false, error: 'the weight annotation is not in the range [0, 1000]: -1' });
    expect(weightOf('1001')).toEqual({ ok: false, error: 'the weight annotation is not in the range [0, 1000]: 1001' });
  });
});
