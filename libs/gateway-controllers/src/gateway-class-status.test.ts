import type { CustomResourceDefinition } from '@fleet-gateway/controller';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import type { CachedGatewayClass } from './gateway-api-resources.js';
import { gatewayClassStatus, servedSupportedFeatures, servesSupportedFeatures } from './gateway-class-status.js';
import { SUPPORTED_FEATURES } from './supported-features.js';

const gatewayClass = (spec: Partial<CachedGatewayClass['spec']> = {}, generation = 3): CachedGatewayClass => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'GatewayClass',
  metadata: { name: 'azure-fleet-afd', generation },
  spec: { controllerName: CONTROLLER_NAME, ...spec },
});

/** How each release declares `status.supportedFeatures`: objects keyed by name from v1.2, strings in v1.1 (experimental). */
const FEATURE_LIST_SCHEMA = { items: { properties: { name: {} } } };
const STRING_LIST_SCHEMA = { items: {} };

/** A GatewayClass CRD whose v1 status declares the given properties, as the standard and experimental channels do. */
const crdWithStatus = (
  properties: string[],
  served = true,
  annotations: Record<string, string> = {},
  featureSchema: object = FEATURE_LIST_SCHEMA,
): CustomResourceDefinition => ({
  metadata: { name: 'gatewayclasses.gateway.networking.k8s.io', annotations },
  spec: {
    group: 'gateway.networking.k8s.io',
    versions: [
      {
        name: 'v1',
        served,
        storage: true,
        schema: {
          openAPIV3Schema: {
            properties: { status: { properties: Object.fromEntries(properties.map((p) => [p, p === 'supportedFeatures' ? featureSchema : {}])) } },
          },
        },
      },
    ],
  },
});

describe('gatewayClassStatus', () => {
  it('accepts a class of ours, with the class generation as observedGeneration', () => {
    expect(gatewayClassStatus(gatewayClass(), false, SUPPORTED_FEATURES)).toEqual({
      conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: `accepted by ${CONTROLLER_NAME}`, observedGeneration: 3 }],
    });
  });

  it('refuses a parametersRef by name, kind and group, and still says which generation it judged', () => {
    const status = gatewayClassStatus(gatewayClass({ parametersRef: { group: 'example.com', kind: 'Config', name: 'cfg' } }, 7), false, SUPPORTED_FEATURES);
    expect(status?.conditions).toEqual([
      {
        type: 'Accepted',
        status: 'False',
        reason: 'InvalidParameters',
        message: 'parametersRef example.com/Config cfg is not supported: this controller takes no parameters',
        observedGeneration: 7,
      },
    ]);
  });

  it('lists supportedFeatures only when the CRD serves them, sorted by name, each once', () => {
    expect(gatewayClassStatus(gatewayClass(), false, SUPPORTED_FEATURES)).not.toHaveProperty('supportedFeatures');
    const names = gatewayClassStatus(gatewayClass(), true, SUPPORTED_FEATURES)?.supportedFeatures?.map((f) => f.name);
    expect(names).toEqual([...new Set(SUPPORTED_FEATURES.map((f) => f.name))].sort());
    const shuffled = [
      { name: 'ReferenceGrant', since: 'v1.2.1', test: 't' },
      { name: 'Gateway', since: 'v1.2.1', test: 't' },
      { name: 'HTTPRoute', since: 'v1.2.1', test: 't' },
      { name: 'Gateway', since: 'v1.2.1', test: 'u' },
    ];
    expect(gatewayClassStatus(gatewayClass(), true, shuffled)?.supportedFeatures).toEqual([
      { name: 'Gateway' },
      { name: 'HTTPRoute' },
      { name: 'ReferenceGrant' },
    ]);
  });

  it('leaves classes of other controllers alone', () => {
    expect(gatewayClassStatus(gatewayClass({ controllerName: 'example.com/other' }), true, SUPPORTED_FEATURES)).toBeUndefined();
  });
});

describe('servesSupportedFeatures', () => {
  it('reads the served v1 schema: the experimental channel declares the field, the standard one does not', () => {
    expect(servesSupportedFeatures(crdWithStatus(['conditions', 'supportedFeatures']))).toBe(true);
    expect(servesSupportedFeatures(crdWithStatus(['conditions']))).toBe(false);
    expect(servesSupportedFeatures(crdWithStatus(['conditions', 'supportedFeatures'], false))).toBe(false);
    expect(servesSupportedFeatures(undefined)).toBe(false);
  });

  it('refuses a list of strings (v1.1 experimental): our entries are objects keyed by name', () => {
    expect(servesSupportedFeatures(crdWithStatus(['conditions', 'supportedFeatures'], true, {}, STRING_LIST_SCHEMA))).toBe(false);
  });
});

describe('servedSupportedFeatures', () => {
  const newer = { name: 'ExampleNewerFeature', since: 'v1.5.1', test: 't' };

  it('lists what the CRD bundle release defines; an unannotated CRD is taken as the oldest release', () => {
    const atRelease = (bundleVersion?: string) =>
      servedSupportedFeatures(crdWithStatus(['supportedFeatures'], true, bundleVersion ? { 'gateway.networking.k8s.io/bundle-version': bundleVersion } : {}), [
        ...SUPPORTED_FEATURES,
        newer,
      ]).map((f) => f.name);
    const all = SUPPORTED_FEATURES.map((f) => f.name);
    const oldest = SUPPORTED_FEATURES.filter((f) => f.since === 'v1.2.1').map((f) => f.name);
    expect(oldest.length).toBeLessThan(all.length);
    expect(atRelease('v1.6.3')).toEqual([...all, newer.name]);
    expect(atRelease('v1.5.1')).toEqual([...all, newer.name]);
    expect(atRelease('v1.5.1-rc.1')).toEqual(oldest);
    expect(atRelease('v1.4.1')).toEqual(oldest);
    expect(atRelease(undefined)).toEqual(oldest);
    expect(atRelease('main')).toEqual(oldest);
  });
});
