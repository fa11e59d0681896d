import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.js';

describe('percentile', () => {
  it('uses the nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
