import type { HTTPRoute, InternalServiceExport, ServiceImport } from '@fleet-gateway/api-types';
import type { HubInputs } from '../resolve/hub-inputs.js';

export interface BenchShape {
  readonly clusters: number;
  readonly serviceImports: number;
  readonly routes: number;
}

/** The shape the issue sets the target for: 160 origins (4 ServiceImports x 40 clusters), 160 routes. */
export const TARGET_SHAPE: BenchShape = { clusters: 40, serviceImports: 4, routes: 160 };

const NAMESPACE = 'shop';

function serviceImport(name: string, clusters: readonly string[]): ServiceImport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'ServiceImport',
    metadata: { namespace: NAMESPACE, name },
    status: { type: 'ClusterSetIP', ports: [{ port: 8080, protocol: 'TCP' }], clusters: clusters.map((cluster) => ({ cluster })) },
  };
}

function internalServiceExport(name: string, cluster: string, index: number): InternalServiceExport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: { namespace: `fleet-member-${cluster}`, name: `${NAMESPACE}-${name}` },
    spec: {
      ports: [{ port: 8080, protocol: 'TCP' }],
      serviceReference: {
        clusterId: cluster,
        kind: 'Service',
        namespace: NAMESPACE,
        name,
        namespacedName: `${NAMESPACE}/${name}`,
        resourceVersion: '1',
        generation: 1,
        uid: `uid-${cluster}-${name}`,
      },
      weight: 1 + (index % 5),
      internalLoadBalancerIP: `10.${index % 250}.0.4`,
      privateLinkService: {
        resourceID: `/subscriptions/s/resourceGroups/mc-${cluster}/providers/Microsoft.Network/privateLinkServices/pls-${name}`,
        location: 'eastus2',
      },
      azureObservedTime: '2026-01-01T00:00:00Z',
    },
  };
}

function route(index: number, imports: number): HTTPRoute {
  const backend = (i: number) => ({ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: `svc-${i % imports}`, port: 8080, weight: 1 + (i % 3) });
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { namespace: NAMESPACE, name: `route-${index}`, generation: 1, creationTimestamp: `2026-01-01T00:${String(index % 60).padStart(2, '0')}:00Z` },
    spec: {
      parentRefs: [{ name: 'edge' }],
      hostnames: [`app-${index % 8}.example.com`],
      rules: [
        {
          matches: [
            {
              path: { type: index % 4 === 0 ? 'Exact' : 'PathPrefix', value: `/api/v${index % 5}/r${index}` },
              ...(index % 3 === 0 ? { headers: [{ name: 'x-tenant', value: `t${index}` }] } : {}),
            },
          ],
          backendRefs: [backend(index), backend(index + 1)],
        },
      ],
    },
  };
}

/** A synthetic Premium Gateway with Private Link origins, for the resolve benchmark. */
export function benchmarkInputs(shape: BenchShape = TARGET_SHAPE): HubInputs {
  const clusters = Array.from({ length: shape.clusters }, (_, i) => `member-${i}`);
  const names = Array.from({ length: shape.serviceImports }, (_, i) => `svc-${i}`);
  return {
    controller: { defaultSku: 'Premium_AzureFrontDoor' },
    gatewayClass: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'GatewayClass',
      metadata: { name: 'azure-fleet-afd' },
      spec: { controllerName: 'networking.fleet.azure.com/afd' },
    },
    gateway: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { namespace: NAMESPACE, name: 'edge', uid: 'bench-uid', generation: 1 },
      spec: {
        gatewayClassName: 'azure-fleet-afd',
        listeners: [
          { name: 'http', protocol: 'HTTP', port: 80, hostname: '*.example.com' },
          {
            name: 'https',
            protocol: 'HTTPS',
            port: 443,
            hostname: 'app-0.example.com',
            tls: { mode: 'Terminate', options: { 'networking.fleet.azure.com/afd-certificate': 'managed' } },
          },
        ],
      },
    },
    httpRoutes: Array.from({ length: shape.routes }, (_, i) => route(i, shape.serviceImports)),
    serviceImports: names.map((name) => serviceImport(name, clusters)),
    internalServiceExports: names.flatMap((name) => clusters.map((cluster, i) => internalServiceExport(name, cluster, i))),
  };
}
