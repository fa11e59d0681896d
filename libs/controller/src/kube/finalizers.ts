import { isConflict, isNotFound } from './kube-api-error.js';
import type { KubeClient } from './kube-client.js';
import type { KubeObject } from './kube-object.js';
import { objectPath, type ResourceType } from './resource-type.js';

export function hasFinalizer(object: KubeObject, finalizer: string): boolean {
  return (object.metadata.finalizers ?? []).includes(finalizer);
}

/**
 * Adds or removes one finalizer, keeping everyone else's: the list is replaced by a merge patch under a
 * resourceVersion precondition. On 409 it re-reads and tries again, `attempts` times in all (1: the caller handles
 * the conflict). Undefined when the object is gone; the object unchanged when it already is as asked.
 */
export async function setFinalizer<T extends KubeObject>(
  client: KubeClient,
  resource: ResourceType,
  object: T,
  finalizer: string,
  present: boolean,
  attempts = 1,
): Promise<T | undefined> {
  const path = objectPath(resource, object.metadata.name, object.metadata.namespace);
  let current = object;
  for (let attempt = 1; ; attempt++) {
    if (hasFinalizer(current, finalizer) === present) return current;
    const others = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    const finalizers = present ? [...others, finalizer] : others;
    try {
      return await client.patch<T>(path, { metadata: { resourceVersion: current.metadata.resourceVersion, finalizers } }, 'merge');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt >= attempts) throw error;
      try {
        current = await client.get<T>(path);
      } catch (readError) {
        if (isNotFound(readError)) return undefined;
        throw readError;
      }
    }
  }
}
