import type { InternalServiceExport, ServiceImport } from '@fleet-gateway/api-types';
import type { ServicePort } from '../service-ports.js';

export interface ExportFixture {
  readonly cluster: string;
  readonly namespace?: string;
  readonly service?: string;
  readonly ports?: readonly ServicePort[];
  readonly created?: string;
  readonly deleting?: boolean;
  readonly finalizers?: readonly string[];
  readonly generation?: number;
}

export const httpPort: ServicePort = { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 };

/**
 * An InternalServiceExport as a member agent publishes it: in `fleet-member-<cluster>`, named `<ns>-<name>`, with
 * the serviceReference upstream's member controller fills in.
 */
export function exportOf(fixture: ExportFixture): InternalServiceExport {
  const namespace = fixture.namespace ?? 'shop';
  const service = fixture.service ?? 'web';
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'InternalServiceExport',
    metadata: {
      namespace: `fleet-member-${fixture.cluster}`,
      name: `${namespace}-${service}`,
      generation: fixture.generation ?? 1,
      ...(fixture.created ? { creationTimestamp: fixture.created } : {}),
      ...(fixture.deleting ? { deletionTimestamp: '2030-01-01T00:00:00Z' } : {}),
      ...(fixture.finalizers ? { finalizers: [...fixture.finalizers] } : {}),
    },
    spec: {
      ports: [...(fixture.ports ?? [httpPort])],
      serviceReference: {
        clusterId: fixture.cluster,
        kind: 'Service',
        namespace,
        name: service,
        namespacedName: `${namespace}/${service}`,
        resourceVersion: '1',
        generation: 1,
        uid: `uid-${fixture.cluster}-${namespace}-${service}`,
      },
      type: 'LoadBalancer',
      weight: 1,
    },
  };
}

export function serviceImportOf(status?: ServiceImport['status'], annotations?: Record<string, string>): ServiceImport {
  return {
    apiVersion: 'networking.fleet.azure.com/v1alpha1',
    kind: 'ServiceImport',
    metadata: { namespace: 'shop', name: 'web', ...(annotations ? { annotations } : {}) },
    ...(status ? { status } : {}),
  };
}
