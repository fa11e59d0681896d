import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crdBundle, OLDEST_SUPPORTED_RELEASE, parseGatewayApiRelease, releaseAtLeast } from './gateway-api-release.js';

const release = fc.record({
  major: fc.nat(3),
  minor: fc.nat(12),
  patch: fc.nat(5),
  suffix: fc.option(fc.constantFrom('-rc.1', '-dev'), { nil: undefined }),
});
const spell = (r: { major: number; minor: number; patch: number; suffix: string | undefined }) => `v${r.major}.${r.minor}.${r.patch}${r.suffix ?? ''}`;

describe('releaseAtLeast', () => {
  it('orders by major, minor, patch, a pre-release before its release', () => {
    expect(releaseAtLeast('v1.6.3', 'v1.5.1')).toBe(true);
    expect(releaseAtLeast('v1.10.0', 'v1.9.0')).toBe(true);
    expect(releaseAtLeast('v1.4.1', 'v1.5.1')).toBe(false);
    expect(releaseAtLeast('v1.5.0-rc.1', 'v1.5.0')).toBe(false);
    expect(releaseAtLeast('v1.5.0', 'v1.5.0-rc.1')).toBe(true);
  });

  it('is a total order: for any two releases one is at least the other, both only when they are the same release', () => {
    fc.assert(
      fc.property(release, release, (a, b) => {
        const ab = releaseAtLeast(spell(a), spell(b));
        const ba = releaseAtLeast(spell(b), spell(a));
        expect(ab || ba).toBe(true);
        const same = a.major === b.major && a.minor === b.minor && a.patch === b.patch && (a.suffix === undefined) === (b.suffix === undefined);
        expect(ab && ba).toBe(same);
      }),
    );
  });

  it('names the value it cannot read', () => {
    expect(() => releaseAtLeast('main', 'v1.2.1')).toThrow('not a Gateway API release: main (expected vMAJOR.MINOR.PATCH)');
    expect(parseGatewayApiRelease('v1.6')).toBeUndefined();
  });
});

describe('crdBundle', () => {
  const crd = (annotations?: Record<string, string>) => ({
    metadata: { name: 'gatewayclasses.gateway.networking.k8s.io', ...(annotations ? { annotations } : {}) },
    spec: { group: 'gateway.networking.k8s.io', versions: [] },
  });

  it('reads the bundle version and channel upstream annotates every CRD with', () => {
    expect(crdBundle(crd({ 'gateway.networking.k8s.io/bundle-version': 'v1.6.3', 'gateway.networking.k8s.io/channel': 'standard' }))).toEqual({
      release: 'v1.6.3',
      bundleVersion: 'v1.6.3',
      channel: 'standard',
    });
  });

  it('takes a CRD without a readable bundle version as the oldest supported release, and says what it found', () => {
    expect(crdBundle(crd())).toEqual({ release: OLDEST_SUPPORTED_RELEASE, bundleVersion: undefined, channel: undefined });
    expect(crdBundle(crd({ 'gateway.networking.k8s.io/bundle-version': 'latest' })).release).toBe(OLDEST_SUPPORTED_RELEASE);
    expect(crdBundle(undefined).release).toBe(OLDEST_SUPPORTED_RELEASE);
  });
});
