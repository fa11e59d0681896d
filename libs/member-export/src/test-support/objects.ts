import type { CachedInternalServiceExport, CachedService, CachedServiceExport } from '../member-resources.js';
import type { OriginFields } from '../origin-observation.js';

export const NOW = new Date('2030-01-01T00:00:10Z');
export const EARLIER = '2030-01-01T00:00:05Z';

/** A Service as the API server returns it (defaults applied): ClusterIP unless told otherwise. */
export function serviceOf(
  overrides: {
    name?: string;
    uid?: string;
    resourceVersion?: string;
    type?: string;
    clusterIP?: string;
    annotations?: Record<string, string>;
    ingress?: { ip?: string; hostname?: string }[];
    sourceRanges?: string[];
    deleting?: boolean;
  } = {},
): CachedService {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      namespace: 'shop',
      name: overrides.name ?? 'web',
      uid: overrides.uid ?? 'svc-uid-1',
      resourceVersion: overrides.resourceVersion ?? '100',
      ...(overrides.annotations ? { annotations: overrides.annotations } : {}),
      ...(overrides.deleting ? { deletionTimestamp: EARLIER } : {}),
    },
    spec: {
      type: overrides.type ?? 'ClusterIP',
      clusterIP: overrides.clusterIP ?? '10.0.0.10',
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
      ...(overrides.sourceRanges ? { loadBalancerSourceRanges: overrides.sourceRanges } : {}),
    },
    ...(overrides.ingress ? { status: { loadBalancer: { ingress: overrides.ingress } } } : {}),
  };
}

export function serviceExportOf(
  overrides: {
    annotations?: Record<string, string>;
    finalizers?: string[];
    deleting?: boolean;
    conditions?: NonNullable<CachedServiceExport['status']>['conditions'];
    generation?: number;
  } = {},
): CachedServiceExport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1beta1',
    kind: 'ServiceExport',
    metadata: {
      namespace: 'shop',
      name: 'web',
      uid: 'se-uid-1',
      resourceVersion: '200',
      generation: overrides.generation ?? 1,
      ...(overrides.annotations ? { annotations: overrides.annotations } : {}),
      ...(overrides.finalizers ? { finalizers: overrides.finalizers } : {}),
      ...(overrides.deleting ? { deletionTimestamp: EARLIER } : {}),
    },
    ...(overrides.conditions ? { status: { conditions: overrides.conditions } } : {}),
  };
}

/** The hub's InternalServiceExport of shop/web from member-1. */
export function hubExportOf(
  overrides: {
    serviceUid?: string;
    namespace?: string;
    name?: string;
    deleting?: boolean;
    conflict?: 'True' | 'False';
    frontDoorIds?: string[];
    publicAddress?: string;
    azureObservedTime?: string;
    /** Origin fields as discovery published them. */
    origin?: OriginFields;
  } = {},
): CachedInternalServiceExport {
  const namespace = overrides.namespace ?? 'shop';
  const name = overrides.name ?? 'web';
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: {
      namespace: 'fleet-member-member-1',
      name: 'shop-web',
      uid: 'ise-uid-1',
      resourceVersion: '300',
      generation: 4,
      ...(overrides.deleting ? { deletionTimestamp: EARLIER } : {}),
    },
    spec: {
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
      serviceReference: {
        clusterId: 'member-1',
        kind: 'Service',
        namespace,
        name,
        namespacedName: `${namespace}/${name}`,
        resourceVersion: '100',
        generation: 0,
        uid: overrides.serviceUid ?? 'svc-uid-1',
      },
      ...(overrides.publicAddress ? { publicAddress: overrides.publicAddress } : {}),
      ...(overrides.azureObservedTime ? { azureObservedTime: overrides.azureObservedTime } : {}),
      ...overrides.origin,
    },
    status: {
      ...(overrides.conflict
        ? {
            conditions: [
              {
                type: 'Conflict',
                status: overrides.conflict,
                reason: overrides.conflict === 'True' ? 'ConflictFound' : 'NoConflictFound',
                message:
                  overrides.conflict === 'True'
                    ? 'service shop/web is in conflict with other exported services'
                    : 'service shop/web is exported without conflict',
                observedGeneration: 4,
                lastTransitionTime: EARLIER,
              },
            ],
          }
        : {}),
      ...(overrides.frontDoorIds ? { frontDoors: overrides.frontDoorIds.map((frontDoorID, i) => ({ gateway: `shop/gw-${i}`, frontDoorID })) } : {}),
    },
  };
}
