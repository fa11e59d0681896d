import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerTokenOf } from './bearer-token.js';

describe('bearerTokenOf', () => {
  it('reads the token after a case-insensitive Bearer scheme, trimming the header', () => {
    expect(bearerTokenOf('Bearer abc.def-ghi')).toBe('abc.def-ghi');
    expect(bearerTokenOf('bearer abc')).toBe('abc');
    expect(bearerTokenOf('BEARER   abc  ')).toBe('abc');
  });

  it('finds no token without a header, with another scheme, an empty token or a token with spaces', () => {
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearerabc', 'Bearer a b']) {
      expect(bearerTokenOf(header)).toBeUndefined();
    }
  });

  it('returns any token without whitespace exactly as sent', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\S+$/), (token) => {
        expect(bearerTokenOf(`Bearer ${token}`)).toBe(token);
      }),
    );
  });
});
