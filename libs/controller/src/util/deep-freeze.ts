/**
 * Freezes a value and everything reachable from it. Cached objects are frozen so that a reconciler which mutates one
 * (instead of computing a new value) fails loudly at the mutation, not later as a corrupted cache.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
