import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it('reads Go-style durations', () => {
    expect(parseDuration('15s')).toBe(15_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '15', 's', '10 s', '-1s', '1d', '1s2']) expect(parseDuration(bad), bad).toBeUndefined();
  });
});
