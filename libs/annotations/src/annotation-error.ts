/**
 * One problem with one annotation. It carries everything a status message needs, so callers never re-derive
 * the wording: the key, the value as written, the expected form, and the condition reason it maps to.
 */
export interface AnnotationError {
  readonly key: string;
  readonly value: string;
  readonly expected: string;
  /** The condition reason the owning object's status should carry (see the README table). */
  readonly reason: string;
  readonly message: string;
}

export type AnnotationResult<T> = { readonly ok: true; readonly config: T } | { readonly ok: false; readonly errors: readonly AnnotationError[] };

/** Joins errors into one status message, in key order so that the message is stable. */
export function formatAnnotationErrors(errors: readonly AnnotationError[]): string {
  return [...errors]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.message)
    .join('; ');
}
