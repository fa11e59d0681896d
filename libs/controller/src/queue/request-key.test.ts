import { describe, expect, it } from 'vitest';
import { objectKey, parseRequestKey, requestFor, requestKey } from './request-key.js';

describe('request keys', () => {
  it('round-trips namespaced and cluster-scoped requests', () => {
    expect(requestKey({ namespace: 'ns', name: 'a' })).toBe('ns/a');
    expect(requestKey({ name: 'a' })).toBe('a');
    expect(parseRequestKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(parseRequestKey('a')).toEqual({ name: 'a' });
  });

  it('derives the request from an object and names what is missing', () => {
    expect(objectKey({ metadata: { name: 'a', namespace: 'ns' } })).toBe('ns/a');
    expect(requestFor({ metadata: { name: 'c' } })).toEqual({ name: 'c' });
    expect(() => requestFor({ metadata: {} })).toThrow('object has no metadata.name');
  });
});
