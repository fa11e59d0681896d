import { describe, expect, it } from 'vitest';
import { covers, intersect, mostSpecificCovering } from './hostnames.js';

describe('hostnames', () => {
  it.each([
    ['*', 'a.example.com', true],
    ['*.example.com', 'a.example.com', true],
    ['*.example.com', 'a.b.example.com', true],
    ['*.example.com', '*.b.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'aexample.com', false],
    ['a.example.com', '*.example.com', false],
    ['a.example.com', '*', false],
  ])('%s covers %s: %s', (pattern, hostname, expected) => {
    expect(covers(pattern, hostname)).toBe(expected);
  });

  it.each([
    ['*', 'a.example.com', 'a.example.com'],
    ['*.example.com', 'a.example.com', 'a.example.com'],
    ['a.example.com', '*.example.com', 'a.example.com'],
    ['*.example.com', '*.b.example.com', '*.b.example.com'],
    ['a.example.com', 'b.example.com', undefined],
    ['*.example.com', 'example.net', undefined],
  ])('listener %s and route %s intersect in %s', (listener, route, expected) => {
    expect(intersect(listener, route)).toBe(expected);
  });

  it('sends a host to the most specific covering listener hostname', () => {
    const listeners = ['*', '*.example.com', 'a.example.com'];
    expect(mostSpecificCovering(listeners, 'a.example.com')).toBe('a.example.com');
    expect(mostSpecificCovering(listeners, 'b.example.com')).toBe('*.example.com');
    expect(mostSpecificCovering(listeners, 'example.net')).toBe('*');
    expect(mostSpecificCovering(['a.example.com'], 'b.example.com')).toBeUndefined();
  });
});
