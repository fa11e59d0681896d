// Manifests the harness tests create: one of each kind the hub agent reads.
export const NS = 'team-a';

export const gatewayClass = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'GatewayClass',
  metadata: { name: 'azure-fleet-afd' },
  spec: { controllerName: 'networking.fleet.azure.com/afd' },
};

export const gateway = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name: 'web', namespace: NS },
  spec: { gatewayClassName: 'azure-fleet-afd', listeners: [{ name: 'http', protocol: 'HTTP', port: 80 }] },
};

export function httpRoute(weight: number) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'store', namespace: NS },
    spec: {
      parentRefs: [{ name: 'web' }],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/store' } }],
          backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'store', namespace: 'team-b', port: 8080, weight }],
        },
      ],
    },
  };
}

export const referenceGrant = {
  apiVersion: 'gateway.networking.k8s.io/v1beta1',
  kind: 'ReferenceGrant',
  metadata: { name: 'allow-team-a', namespace: 'team-b' },
  spec: {
    from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: NS }],
    to: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport' }],
  },
};

export const serviceImport = {
  apiVersion: 'networking.fleet.azure.com/v1alpha1',
  kind: 'ServiceImport',
  metadata: { name: 'store', namespace: 'team-b' },
};

export function internalServiceExport(member: string, port: number) {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: { name: 'team-b-store', namespace: `fleet-member-${member}` },
    spec: {
      ports: [{ name: 'http', protocol: 'TCP', port, targetPort: 8080 }],
      serviceReference: {
        clusterId: member,
        kind: 'Service',
        apiVersion: 'v1',
        namespace: 'team-b',
        name: 'store',
        namespacedName: 'team-b/store',
        resourceVersion: '1',
        generation: 1,
        uid: '00000000-0000-0000-0000-000000000001',
      },
      type: 'LoadBalancer',
      isInternalLoadBalancer: true,
      weight: 1,
      internalLoadBalancerIP: '10.1.0.4',
      privateLinkService: {
        resourceID: '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc-rg/providers/Microsoft.Network/privateLinkServices/pls-store',
        location: 'eastus2',
        alias: 'pls-store.00000000-0000-0000-0000-000000000000.eastus2.azure.privatelinkservice',
      },
      privateEndpointConnections: [{ name: 'pe-1', status: 'Pending', description: 'fleet-gw-req-1' }],
      azureDataStale: false,
    },
  };
}
