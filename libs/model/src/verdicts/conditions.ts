import type { VerdictCondition } from './verdict-types.js';

/** Builds conditions for one object generation; statuses are written out so call sites read like the table. */
export function conditionsFor(observedGeneration: number) {
  const make =
    (status: VerdictCondition['status']) =>
    (type: string, reason: string, message: string): VerdictCondition => ({
      type,
      status,
      reason,
      message,
      observedGeneration,
    });
  return { isTrue: make('True'), isFalse: make('False') };
}

/** Joins message parts into one sentence list, skipping empty parts. */
export function joinMessages(parts: readonly (string | undefined)[]): string {
  return parts.filter((p): p is string => !!p).join('; ');
}
