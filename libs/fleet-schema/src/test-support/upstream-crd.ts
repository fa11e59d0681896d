import type { CustomResourceDefinition } from '@fleet-gateway/controller';
import { EXTENSION_FIELDS } from '../fleet-crd-check.js';

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
}

/**
 * Our InternalServiceExport CRD as upstream fleet-networking ships it: the same schema with the extension fields
 * removed from every version, optionally with extra labels (net-crd-installer's).
 */
export function withoutExtensionFields(crd: CustomResourceDefinition, labels: Record<string, string> = {}): CustomResourceDefinition {
  const copy = structuredClone(crd) as unknown as {
    metadata: { labels?: Record<string, string> };
    spec: { versions: { schema?: { openAPIV3Schema?: SchemaNode } }[] };
  };
  copy.metadata.labels = { ...copy.metadata.labels, ...labels };
  for (const version of copy.spec.versions) {
    for (const path of EXTENSION_FIELDS) {
      const parent = path.slice(0, -1).reduce<SchemaNode | undefined>((node, name) => node?.properties?.[name], version.schema?.openAPIV3Schema);
      delete parent?.properties?.[path.at(-1)!];
    }
  }
  return copy as unknown as CustomResourceDefinition;
}
