import { describe, expect, it } from 'vitest';
import { apiVersionOf, collectionPath, objectPath, resourceName, type ResourceType } from './resource-type.js';

const configMaps: ResourceType = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
const routes: ResourceType = { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'HTTPRoute', plural: 'httproutes', namespaced: true };
const classes: ResourceType = { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'GatewayClass', plural: 'gatewayclasses', namespaced: false };

describe('resource paths', () => {
  it('builds core and group paths, namespaced and cluster-wide', () => {
    expect(collectionPath(configMaps)).toBe('/api/v1/configmaps');
    expect(collectionPath(configMaps, 'ns')).toBe('/api/v1/namespaces/ns/configmaps');
    expect(objectPath(routes, 'r', 'ns')).toBe('/apis/gateway.networking.k8s.io/v1/namespaces/ns/httproutes/r');
    expect(objectPath(classes, 'c', 'ignored')).toBe('/apis/gateway.networking.k8s.io/v1/gatewayclasses/c');
    expect(apiVersionOf(configMaps)).toBe('v1');
    expect(apiVersionOf(routes)).toBe('gateway.networking.k8s.io/v1');
    expect(resourceName(configMaps)).toBe('configmaps.v1');
    expect(resourceName(routes)).toBe('httproutes.v1.gateway.networking.k8s.io');
  });

  it('refuses a namespaced object path without a namespace', () => {
    expect(() => objectPath(routes, 'r')).toThrow('HTTPRoute r: namespace is required for a namespaced resource');
  });
});
