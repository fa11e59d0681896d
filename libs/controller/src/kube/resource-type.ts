/**
 * One API resource, spelled out once, so paths are never assembled from loose strings at call sites.
 * `group` is '' for the core group (`/api/v1`).
 */
export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The lower-case plural in URLs, e.g. `httproutes`. */
  readonly plural: string;
  readonly namespaced: boolean;
}

export function apiVersionOf(resource: ResourceType): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** `plural.version.group` (`configmaps.v1` for core), the form used in metric labels and logs. */
export function resourceName(resource: ResourceType): string {
  return [resource.plural, resource.version, resource.group].filter(Boolean).join('.');
}

/** The collection path; all namespaces when a namespaced resource is given no namespace. */
export function collectionPath(resource: ResourceType, namespace?: string): string {
  const base = resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  if (!resource.namespaced || namespace === undefined) return `${base}/${resource.plural}`;
  return `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}`;
}

export function objectPath(resource: ResourceType, name: string, namespace?: string): string {
  if (resource.namespaced && !namespace) {
    throw new Error(`${resource.kind} ${name}: namespace is required for a namespaced resource`);
  }
  return `${collectionPath(resource, resource.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
}
