/** What a reconciler is asked to look at: one object by namespace and name, never the object itself. */
export interface ReconcileRequest {
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
}

/** The minimal shape every Kubernetes object has; enough to derive a key. */
export interface ObjectReferenceLike {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
}

/** `namespace/name`, or `name` for cluster-scoped objects — the same form client-go uses. */
export function requestKey(request: ReconcileRequest): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

export function parseRequestKey(key: string): ReconcileRequest {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

function nameOf(object: ObjectReferenceLike): string {
  const name = object.metadata?.name;
  if (!name) throw new Error('object has no metadata.name; expected every watched object to be named');
  return name;
}

export function requestFor(object: ObjectReferenceLike): ReconcileRequest {
  const name = nameOf(object);
  const namespace = object.metadata?.namespace;
  return namespace ? { namespace, name } : { name };
}

/** requestKey(requestFor(object)) without the request in between: it runs for every event, twice. */
export function objectKey(object: ObjectReferenceLike): string {
  const name = nameOf(object);
  const namespace = object.metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}
