import type { ListenerSet } from '@fleet-gateway/api-types';
import { GATEWAY_GROUP, namespacedName } from '../model/names.js';

/** The object a listener is written in: the Gateway itself, or a ListenerSet attached to it. */
export interface ListenerOwner {
  readonly kind: 'Gateway' | 'ListenerSet';
  readonly namespace: string;
  readonly name: string;
  readonly generation: number;
}

/**
 * The listener's name in the model: its own name for the Gateway's listeners; for a ListenerSet's, which may share a
 * name with the Gateway's or a sibling's, one that also names the ListenerSet (a section name has no `/`).
 */
export function listenerId(owner: ListenerOwner, listener: string): string {
  return owner.kind === 'Gateway' ? listener : `${owner.kind}/${owner.namespace}/${owner.name}/${listener}`;
}

export function listenerSetOwner(set: ListenerSet): ListenerOwner {
  return { kind: 'ListenerSet', namespace: set.metadata.namespace ?? '', name: set.metadata.name ?? '', generation: set.metadata.generation ?? 0 };
}

/** `<namespace>/<name>` of the Gateway a ListenerSet's parentRef names; undefined when it names another kind. */
export function listenerSetParent(set: ListenerSet): string | undefined {
  const ref = set.spec.parentRef;
  if ((ref.group ?? GATEWAY_GROUP) !== GATEWAY_GROUP || (ref.kind ?? 'Gateway') !== 'Gateway') return undefined;
  return namespacedName(ref.namespace ?? set.metadata.namespace ?? '', ref.name);
}
