import type { CustomResourceDefinition } from '@fleet-gateway/controller';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import type { CachedGatewayClass } from './gateway-api-resources.js';
import { gatewayClassStatus, servesSupportedFeatures } from './gateway-class-status.js';
import { SUPPORTED_FEATURES } from './supported-features.js';

const gatewayClass = (spec: Partial<CachedGatewayClass['spec']> = {}, generation = 3): CachedGatewayClass => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'GatewayClass',
  metadata: { name: 'azure-fleet-afd', generation },
  spec: { controllerName: CONTROLLER_NAME, ...spec },
});

/** A GatewayClass CRD whose v1 status declares the given properties, as the standard and experimental channels do. */
const crdWithStatus = (properties: string[], served = true): CustomResourceDefinition => ({
  metadata: { name: 'gatewayclasses.gateway.networking.k8s.io' },
  spec: {
    group: 'gateway.networking.k8s.io',
    versions: [
      {
        name: 'v1',
        served,
        storage: true,
        schema: { openAPIV3Schema: { properties: { status: { properties: Object.fromEntries(properties.map((p) => [p, {}])) } } } },
      },
    ],
  },
});

describe('gatewayClassStatus', () => {
  it('accepts a class of ours, with the class generation as observedGeneration', () => {
    expect(gatewayClassStatus(gatewayClass(), false)).toEqual({
      conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: `accepted by ${CONTROLLER_NAME}`, observedGeneration: 3 }],
    });
  });

  it('refuses a parametersRef by name, kind and group, and still says which generation it judged', () => {
    const status = gatewayClassStatus(gatewayClass({ parametersRef: { group: 'example.com', kind: 'Config', name: 'cfg' } }, 7), false);
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
    expect(gatewayClassStatus(gatewayClass(), false)).not.toHaveProperty('supportedFeatures');
    const names = gatewayClassStatus(gatewayClass(), true)?.supportedFeatures?.map((f) => f.name);
    expect(names).toEqual([...new Set(SUPPORTED_FEATURES.map((f) => f.name))].sort());
    const shuffled = [
      { name: 'ReferenceGrant', test: 't' },
      { name: 'Gateway', test: 't' },
      { name: 'HTTPRoute', test: 't' },
      { name: 'Gateway', test: 'u' },
    ];
    expect(gatewayClassStatus(gatewayClass(), true, shuffled)?.supportedFeatures).toEqual([
      { name: 'Gateway' },
      { name: 'HTTPRoute' },
      { name: 'ReferenceGrant' },
    ]);
  });

  it('leaves classes of other controllers alone', () => {
    expect(gatewayClassStatus(gatewayClass({ controllerName: 'example.com/other' }), true)).toBeUndefined();
  });
});

describe('servesSupportedFeatures', () => {
  it('reads the served v1 schema: the experimental channel declares the field, the standard one does not', () => {
    expect(servesSupportedFeatures(crdWithStatus(['conditions', 'supportedFeatures']))).toBe(true);
    expect(servesSupportedFeatures(crdWithStatus(['conditions']))).toBe(false);
    expect(servesSupportedFeatures(crdWithStatus(['conditions', 'supportedFeatures'], false))).toBe(false);
    expect(servesSupportedFeatures(undefined)).toBe(false);
  });
});
