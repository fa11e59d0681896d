import { findByKeys } from './stamp-status.js';

/** Which entries of a shared atomic list belong to us, and how one entry is told from another. */
export interface OwnedEntryRule<T> {
  /** Fields that identify an entry, e.g. `['parentRef', 'controllerName']` for HTTPRoute.status.parents. */
  readonly keyFields: readonly string[];
  /** True for entries this controller writes (e.g. `entry.controllerName === ours`). */
  readonly isOurs: (entry: T) => boolean;
}

/**
 * Replaces our entries in a list other controllers also write, leaving theirs exactly as they were. Our entries
 * that are still desired stay in place (so an unchanged list compares equal and is not rewritten), ours that are
 * no longer desired are dropped, and new ones are appended in the order given.
 */
export function spliceOwnedEntries<T>(current: readonly T[], desired: readonly T[], rule: OwnedEntryRule<T>): T[] {
  const foreign = desired.find((entry) => !rule.isOurs(entry));
  if (foreign !== undefined) {
    throw new Error(`spliceOwnedEntries: desired entry ${JSON.stringify(foreign)} is not ours; expected only our entries`);
  }
  const placed = new Set<T>();
  const result: T[] = [];
  for (const entry of current) {
    if (!rule.isOurs(entry)) {
      result.push(entry);
      continue;
    }
    const replacement = findByKeys(desired, entry, rule.keyFields) as T | undefined;
    if (replacement !== undefined && !placed.has(replacement)) {
      result.push(replacement);
      placed.add(replacement);
    }
  }
  for (const entry of desired) if (!placed.has(entry)) result.push(entry);
  return result;
}
