import type { HTTPBackendRef, HTTPRoute, HTTPRouteMatch, HTTPRouteRule, InternalServiceExport, ServiceImport } from '@fleet-gateway/api-types';
import type { HubInputs } from '@fleet-gateway/model';

/**
 * Test support: the hub's objects (HubInputs) for a shared Gateway `infra/edge` whose one HTTP listener admits
 * HTTPRoutes from every namespace, so that tests run resolve and plan together as the hub does.
 */
export const GATEWAY = { namespace: 'infra', name: 'edge' } as const;

export interface TeamService {
  readonly namespace: string;
  readonly name: string;
  readonly clusters: readonly string[];
  readonly annotations?: Readonly<Record<string, string>>;
}

const PORT = 8080;

export function serviceImport(service: TeamService): ServiceImport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'ServiceImport',
    metadata: { namespace: service.namespace, name: service.name, ...(service.annotations ? { annotations: { ...service.annotations } } : {}) },
    status: { type: 'ClusterSetIP', ports: [{ port: PORT, protocol: 'TCP' }], clusters: service.clusters.map((cluster) => ({ cluster })) },
  };
}

function serviceExports(service: TeamService, serviceIndex: number): InternalServiceExport[] {
  return service.clusters.map((cluster, i) => ({
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: { namespace: `fleet-member-${cluster}`, name: `${service.namespace}-${service.name}` },
    spec: {
      ports: [{ port: PORT, protocol: 'TCP' }],
      serviceReference: {
        clusterId: cluster,
        kind: 'Service',
        namespace: service.namespace,
        name: service.name,
        namespacedName: `${service.namespace}/${service.name}`,
        resourceVersion: '1',
        generation: 1,
        uid: `00000000-0000-4000-8000-${String(serviceIndex * 100 + i).padStart(12, '0')}`,
      },
      type: 'LoadBalancer',
      weight: i + 1,
      publicAddress: `20.0.${serviceIndex}.${i + 1}`,
      azureObservedTime: '2026-01-01T00:00:00Z',
    },
  }));
}

export function backendRef(name: string, weight?: number, namespace?: string): HTTPBackendRef {
  return {
    group: 'networking.fleet.azure.com',
    kind: 'ServiceImport',
    name,
    port: PORT,
    ...(namespace ? { namespace } : {}),
    ...(weight === undefined ? {} : { weight }),
  };
}

export function pathMatch(type: 'Exact' | 'PathPrefix', value: string, extra: Omit<HTTPRouteMatch, 'path'> = {}): HTTPRouteMatch {
  return { path: { type, value }, ...extra };
}

export function httpRoute(namespace: string, name: string, creationTimestamp: string, rules: readonly HTTPRouteRule[]): HTTPRoute {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { namespace, name, generation: 1, creationTimestamp },
    spec: { parentRefs: [{ name: GATEWAY.name, namespace: GATEWAY.namespace }], rules: [...rules] },
  };
}

export function hubInputs(services: readonly TeamService[], routes: readonly HTTPRoute[]): HubInputs {
  return {
    controller: { defaultSku: 'Standard_AzureFrontDoor' },
    gatewayClass: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GatewayClass',
      metadata: { name: 'azure-fleet-afd', generation: 1 },
      spec: { controllerName: 'networking.fleet.azure.com/afd' },
    },
    gateway: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { ...GATEWAY, uid: '6f1c2d3e-0000-4000-8000-000000000011', generation: 1 },
      spec: {
        gatewayClassName: 'azure-fleet-afd',
        listeners: [{ name: 'http', protocol: 'HTTP', port: 80, allowedRoutes: { namespaces: { from: 'All' } } }],
      },
    },
    httpRoutes: [...routes],
    serviceImports: services.map(serviceImport),
    internalServiceExports: services.flatMap(serviceExports),
  };
}
