import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GatewayListener, HTTPRoute, ListenerSet } from '@fleet-gateway/api-types';
import { readHubInputs, type HubInputs } from '../resolve/hub-inputs.js';

/**
 * Test fixtures for ListenerSets: the store/edge Gateway of testdata (HTTP and HTTPS listeners for store.example.com)
 * admitting ListenerSets from every namespace, with the ServiceImport store/web every team's route may use.
 */
const testdata = join(import.meta.dirname, '..', '..', 'testdata');

export function sharedGatewayInputs(): HubInputs {
  const inputs = readHubInputs(readFileSync(join(testdata, 'listener-https-managed-certificate.in.yaml'), 'utf8'));
  const gateway = { ...inputs.gateway, spec: { ...inputs.gateway.spec, allowedListeners: { namespaces: { from: 'All' as const } } } };
  const grant = {
    apiVersion: 'gateway.networking.k8s.io/v1beta1' as const,
    kind: 'ReferenceGrant' as const,
    metadata: { namespace: 'store', name: 'teams' },
    spec: {
      from: ['team-a', 'team-b', 'team-c'].map((namespace) => ({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace })),
      to: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport' }],
    },
  };
  return { ...inputs, gateway, referenceGrants: [grant] };
}

export function httpsListener(name: string, hostname: string): GatewayListener {
  return { name, protocol: 'HTTPS', port: 443, hostname, tls: { mode: 'Terminate', options: { 'networking.fleet.azure.com/afd-certificate': 'managed' } } };
}

export function listenerSet(namespace: string, name: string, listeners: readonly GatewayListener[], creationTimestamp = '2026-02-01T00:00:00Z'): ListenerSet {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'ListenerSet',
    metadata: { namespace, name, generation: 1, creationTimestamp },
    spec: { parentRef: { name: 'edge', namespace: 'store' }, listeners: listeners.map((l) => ({ ...l })) as ListenerSet['spec']['listeners'] },
  };
}

/** A team's route through its ListenerSet (optionally one listener of it) to store/web. */
export function teamRoute(namespace: string, set: string, sectionName?: string): HTTPRoute {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { namespace, name: 'app', generation: 1, creationTimestamp: '2026-02-02T00:00:00Z' },
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'ListenerSet', name: set, ...(sectionName ? { sectionName } : {}) }],
      rules: [{ backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'web', namespace: 'store', port: 8080 }] }],
    },
  };
}
