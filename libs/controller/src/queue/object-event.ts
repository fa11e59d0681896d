/**
 * A change seen by an informer. `resynced` re-delivers an unchanged cached object on the periodic resync, so
 * level-based controllers look at every object again now and then even if no event was missed.
 */
export type ObjectEvent<T> =
  | { readonly type: 'added'; readonly object: T }
  | { readonly type: 'updated'; readonly object: T; readonly old: T }
  | { readonly type: 'deleted'; readonly object: T }
  | { readonly type: 'resynced'; readonly object: T };

export type ObjectEventHandler<T> = (event: ObjectEvent<T>) => void;

/** Anything a controller can watch: an informer, or a test double of one. Returns an unsubscribe function. */
export interface ObjectEventSource<T> {
  subscribe(handler: ObjectEventHandler<T>): () => void;
}
