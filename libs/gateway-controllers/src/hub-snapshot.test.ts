import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { hubInputsOf, type HubObjects } from './hub-snapshot.js';

const gateway = (name: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { namespace: 'shop', name, uid: `uid-${name}` },
  spec: { gatewayClassName: 'afd', listeners: [{ name: 'http', protocol: 'HTTP', port: 80 }] },
});
const route = (name: string, parent: string, backend: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { namespace: 'shop', name },
  spec: {
    parentRefs: [{ name: parent }],
    rules: [{ backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: backend, port: 80 }] }],
  },
});
const serviceImport = (name: string) => ({ apiVersion: 'networking.fleet.azure.com/v1alpha1', kind: 'ServiceImport', metadata: { namespace: 'shop', name } });
const serviceExport = (cluster: string, service: string) => ({
  apiVersion: 'networking.fleet.azure.com/v1alpha1',
  kind: 'InternalServiceExport',
  metadata: { namespace: `fleet-member-${cluster}`, name: `shop-${service}` },
  spec: { serviceReference: { namespace: 'shop', name: service, clusterId: cluster }, ports: [] },
});

const objects = {
  gatewayClasses: [{ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: 'afd' }, spec: { controllerName: CONTROLLER_NAME } }],
  gateways: [gateway('edge'), gateway('other')],
  httpRoutes: [route('web', 'edge', 'web'), route('api', 'other', 'api')],
  referenceGrants: [],
  serviceImports: [serviceImport('web'), serviceImport('api')],
  internalServiceExports: [serviceExport('member-1', 'web'), serviceExport('member-1', 'api')],
  namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { team: 'shop' } } }],
} as unknown as HubObjects;

describe('hubInputsOf', () => {
  it("selects from a snapshot what the Gateway's reconcile reads: its routes, their imports and exports", () => {
    const inputs = hubInputsOf(objects, 'shop/edge', 'Standard_AzureFrontDoor')!;
    expect(inputs.gateway.metadata.name).toBe('edge');
    expect(inputs.gatewayClass?.metadata.name).toBe('afd');
    expect(inputs.httpRoutes?.map((r) => r.metadata.name)).toEqual(['web']);
    expect(inputs.serviceImports?.map((s) => s.metadata.name)).toEqual(['web']);
    expect(inputs.internalServiceExports?.map((e) => e.metadata.name)).toEqual(['shop-web']);
    expect(inputs.namespaces).toEqual([{ name: 'shop', labels: { team: 'shop' } }]);
    expect(inputs.controller).toEqual({ defaultSku: 'Standard_AzureFrontDoor' });
  });

  it('is undefined for a Gateway the snapshot does not hold', () => {
    expect(hubInputsOf(objects, 'shop/missing', 'Standard_AzureFrontDoor')).toBeUndefined();
  });
});
