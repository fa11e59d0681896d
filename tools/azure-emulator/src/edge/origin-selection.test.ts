import { describe, expect, it } from 'vitest';
import { selectOrigin } from './origin-selection.js';
import type { OriginEntry, OriginGroupEntry } from './routing-table.js';

function origin(name: string, overrides: Partial<OriginEntry> = {}): OriginEntry {
  return {
    key: name,
    name,
    hostName: name,
    httpPort: 80,
    httpsPort: 443,
    enforceCertificateNameCheck: true,
    priority: 1,
    weight: 50,
    enabled: true,
    ...overrides,
  };
}

function group(origins: OriginEntry[], additionalLatencyMs = 50): OriginGroupEntry {
  return { key: 'g', sampleSize: 4, successfulSamplesRequired: 3, additionalLatencyMs, origins };
}

const always = { isHealthy: () => true, latencyMs: () => 0 };

describe('selectOrigin', () => {
  it('picks by weight with the given random source', () => {
    const g = group([origin('a', { weight: 1 }), origin('b', { weight: 3 })]);
    expect(selectOrigin(g, { ...always, random: () => 0.2 }).origin?.name).toBe('a');
    expect(selectOrigin(g, { ...always, random: () => 0.3 }).origin?.name).toBe('b');
  });

  it('prefers the lowest priority among healthy origins, then fails open when none is healthy', () => {
    const g = group([origin('primary', { priority: 1 }), origin('backup', { priority: 2 })]);
    expect(selectOrigin(g, { ...always, random: () => 0 }).origin?.name).toBe('primary');
    expect(selectOrigin(g, { isHealthy: (key) => key !== 'primary', latencyMs: () => 0, random: () => 0 }).origin?.name).toBe('backup');
    expect(selectOrigin(g, { isHealthy: () => false, latencyMs: () => 0, random: () => 0 }).origin?.name).toBe('primary');
  });

  it('keeps only origins within the latency band of the fastest', () => {
    const g = group([origin('far', { weight: 1000 }), origin('near', { weight: 1 })], 50);
    const latency = (o: OriginEntry) => (o.name === 'far' ? 120 : 10);
    expect(selectOrigin(g, { isHealthy: () => true, latencyMs: latency, random: () => 0 }).origin?.name).toBe('near');
  });

  it('skips disabled origins and Private Link origins not yet approved', () => {
    expect(selectOrigin(group([origin('off', { enabled: false }), origin('pending', { privateLinkApproved: false })]), { ...always, random: () => 0 })).toEqual(
      {
        reason: 'no-enabled-origin',
      },
    );
    expect(selectOrigin(group([origin('approved', { privateLinkApproved: true })]), { ...always, random: () => 0 }).origin?.name).toBe('approved');
  });
});
