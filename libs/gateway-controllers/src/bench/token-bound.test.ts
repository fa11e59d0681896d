import { describe, expect, it } from 'vitest';
import { tokenBoundSeconds } from './token-bound.js';

describe('tokenBoundSeconds', () => {
  it('admits the burst at once and the rest at the refill rate', () => {
    const bucket = { burst: 100, refillPerSecond: 5 };
    expect(tokenBoundSeconds(0, bucket)).toBe(0);
    expect(tokenBoundSeconds(100, bucket)).toBe(0);
    expect(tokenBoundSeconds(101, bucket)).toBeCloseTo(0.2);
    expect(tokenBoundSeconds(2_600, bucket)).toBe(500);
  });
});
