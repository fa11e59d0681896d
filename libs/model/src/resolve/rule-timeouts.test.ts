import { describe, expect, it } from 'vitest';
import { parseDuration, timeoutProblem } from './rule-timeouts.js';

describe('rule timeouts', () => {
  it.each([
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['0s', 0],
    ['1h1m1s1ms', 3_661_001],
  ])('parses %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '1', '1.5s', '-1s', '1d', '1h1m1s1ms1h', '123456s'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('accepts a timeout equal to the profile timeout, and 0s as the longest (240 s)', () => {
    expect(timeoutProblem({ timeouts: { backendRequest: '1m', request: '60s' } }, 60)).toBeUndefined();
    expect(timeoutProblem({ timeouts: { request: '0s' } }, 240)).toBeUndefined();
    expect(timeoutProblem({}, 60)).toBeUndefined();
  });

  it('names the field, the value and the range or the profile timeout', () => {
    expect(timeoutProblem({ timeouts: { request: '15s' } }, 60)).toBe("timeouts.request 15s is outside AFD's range of 16s to 240s in whole seconds");
    expect(timeoutProblem({ timeouts: { request: '20500ms' } }, 60)).toContain('in whole seconds');
    expect(timeoutProblem({ timeouts: { backendRequest: '2m' } }, 60)).toMatch(
      /^timeouts\.backendRequest 2m differs from the Gateway's origin response timeout of 60s/,
    );
    expect(timeoutProblem({ timeouts: { backendRequest: 'soon' } }, 60)).toBe('timeouts.backendRequest soon is not a duration');
  });
});
