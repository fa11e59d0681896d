import { RESOURCES, type InternalServiceExport, type ServiceImport } from '@fleet-gateway/api-types';
import type { KubeObject, ResourceType } from '@fleet-gateway/controller';

/** The Fleet objects as an informer caches them: the generated types, with the name the API server always sets. */
export type CachedServiceImport = ServiceImport & KubeObject;
export type CachedInternalServiceExport = InternalServiceExport & KubeObject;

export const serviceImports: ResourceType = RESOURCES.ServiceImport;
export const internalServiceExports: ResourceType = RESOURCES.InternalServiceExport;

/** The informer index of InternalServiceExports by the Service they export (`<namespace>/<name>`). */
export const EXPORTED_SERVICE_INDEX = 'exportedService';

/** Files an export under the ServiceImport it feeds: the namespace and name of its serviceReference. */
export function exportedServiceOf(ise: InternalServiceExport): readonly string[] {
  const ref = ise.spec?.serviceReference;
  return ref ? [`${ref.namespace}/${ref.name}`] : [];
}
