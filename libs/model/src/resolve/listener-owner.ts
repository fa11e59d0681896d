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
