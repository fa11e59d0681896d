/** API groups, versions and resource plurals of the kinds this project reads and writes. */
export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
export const FLEET_NETWORKING_GROUP = 'networking.fleet.azure.com';

export interface ResourceKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

export const RESOURCES = {
  GatewayClass: { group: GATEWAY_GROUP, version: 'v1', kind: 'GatewayClass', plural: 'gatewayclasses', namespaced: false },
  Gateway: { group: GATEWAY_GROUP, version: 'v1', kind: 'Gateway', plural: 'gateways', namespaced: true },
  /** Served from Gateway API v1.5.0 on: read only when the hub serves it. */
  ListenerSet: { group: GATEWAY_GROUP, version: 'v1', kind: 'ListenerSet', plural: 'listenersets', namespaced: true },
  HTTPRoute: { group: GATEWAY_GROUP, version: 'v1', kind: 'HTTPRoute', plural: 'httproutes', namespaced: true },
  ReferenceGrant: { group: GATEWAY_GROUP, version: 'v1beta1', kind: 'ReferenceGrant', plural: 'referencegrants', namespaced: true },
  ServiceExport: { group: FLEET_NETWORKING_GROUP, version: 'v1beta1', kind: 'ServiceExport', plural: 'serviceexports', namespaced: true },
  ServiceImport: { group: FLEET_NETWORKING_GROUP, version: 'v1alpha1', kind: 'ServiceImport', plural: 'serviceimports', namespaced: true },
  InternalServiceExport: {
    group: FLEET_NETWORKING_GROUP,
    version: 'v1alpha1',
    kind: 'InternalServiceExport',
    plural: 'internalserviceexports',
    namespaced: true,
  },
} as const satisfies Record<string, ResourceKind>;

/** `<group>/<version>` as used in apiVersion fields. */
export function apiVersionOf(resource: ResourceKind): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}
