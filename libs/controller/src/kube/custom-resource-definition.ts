import type { KubeObject } from './kube-object.js';
import type { ResourceType } from './resource-type.js';

export const customResourceDefinitions: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
};

/** An OpenAPI v3 schema as far as field lookups need it (a CRD's openAPIV3Schema, a component of /openapi/v3). */
export interface SchemaNode {
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
}

/** The parts of an installed CRD that say what it serves. */
export interface CustomResourceDefinition extends KubeObject {
  readonly spec: {
    readonly group: string;
    readonly versions: readonly {
      readonly name: string;
      readonly served: boolean;
      readonly storage: boolean;
      readonly schema?: { readonly openAPIV3Schema?: SchemaNode };
    }[];
  };
}

/**
 * Whether the CRD's served `version` declares the field at `path` (property names from the object root; list
 * items are stepped through), i.e. whether the API server keeps that field instead of pruning it.
 */
export function crdServesField(crd: CustomResourceDefinition | undefined, version: string, path: readonly string[]): boolean {
  const served = crd?.spec.versions.find((v) => v.name === version && v.served);
  return schemaDeclaresField(served?.schema?.openAPIV3Schema, path);
}

/** Whether the schema declares the field at `path` (property names from its root; list items are stepped through). */
export function schemaDeclaresField(schema: SchemaNode | undefined, path: readonly string[]): boolean {
  let node = schema;
  for (const name of path) {
    while (node?.items) node = node.items;
    node = node?.properties?.[name];
  }
  return node !== undefined;
}
