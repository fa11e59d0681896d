import { RESOURCES, type InternalServiceExport, type ServiceExport } from '@fleet-gateway/api-types';
import type { KubeObject, ResourceType } from '@fleet-gateway/controller';

export type CachedServiceExport = ServiceExport & KubeObject;
export type CachedInternalServiceExport = InternalServiceExport & KubeObject;

/** The parts of a core/v1 Service this agent reads. */
export interface ServicePortSpec {
  readonly name?: string;
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
  readonly appProtocol?: string;
  readonly port: number;
  readonly targetPort?: number | string;
}

export interface CachedService extends KubeObject {
  readonly spec?: {
    readonly type?: string;
    readonly clusterIP?: string;
    readonly ports?: readonly ServicePortSpec[];
    readonly loadBalancerSourceRanges?: readonly string[];
  };
  readonly status?: { readonly loadBalancer?: { readonly ingress?: readonly { readonly ip?: string; readonly hostname?: string }[] } };
}

export const services: ResourceType = { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true };
export const nodes: ResourceType = { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false };
export const serviceExports: ResourceType = RESOURCES.ServiceExport;
export const internalServiceExports: ResourceType = RESOURCES.InternalServiceExport;

/** The ServiceExport an InternalServiceExport speaks for (`<namespace>/<name>` of its serviceReference). */
export function exportedServiceOf(ise: InternalServiceExport): { namespace: string; name: string } | undefined {
  const ref = ise.spec?.serviceReference;
  return ref ? { namespace: ref.namespace, name: ref.name } : undefined;
}
