import { isPlainObject, jsonEqual } from '../util/deep-equal.js';

/** One metadata.managedFields entry, as the API server returns it. */
export interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly subresource?: string;
  readonly fieldsV1?: unknown;
}

/** Where an apply goes: a top-level field, written through a subresource (`status`) or the object itself (`spec`). */
export interface ApplyTarget {
  readonly field: string;
  /** Absent for the object itself. */
  readonly subresource?: string;
}

const statusTarget: ApplyTarget = { field: 'status', subresource: 'status' };

/**
 * True when a server-side apply of `applied` to `target` (by default the status subresource) by `manager` would
 * change nothing: every
 * applied value is already there, and the fields the manager owns are exactly the fields it applies (an owned field
 * missing from `applied` would be removed by the apply, which is a change). Ownership comes from managedFields, so
 * the answer is right after a restart too, without remembering what was applied before. When unsure (an unknown
 * list encoding), it answers false and the write happens.
 */
export function applyIsNoop(
  currentValue: unknown,
  applied: Record<string, unknown>,
  managedFields: readonly ManagedFieldsEntry[] | undefined,
  manager: string,
  target: ApplyTarget = statusTarget,
): boolean {
  const entry = managedFields?.find((e) => e.manager === manager && e.operation === 'Apply' && e.subresource === target.subresource);
  if (!entry || !isPlainObject(entry.fieldsV1)) return false;
  const topLevel = fieldKeys(entry.fieldsV1);
  const field = `f:${target.field}`;
  if (topLevel.length !== 1 || topLevel[0] !== field) return false;
  return unchanged(applied, currentValue, entry.fieldsV1[field]);
}

function unchanged(applied: unknown, current: unknown, owned: unknown): boolean {
  const ownedObject = isPlainObject(owned) ? owned : {};
  if (Array.isArray(applied)) return listUnchanged(applied, current, ownedObject);
  if (!isPlainObject(applied)) return jsonEqual(applied, current);
  if (!isPlainObject(current)) return false;
  // An atomic map (x-kubernetes-map-type: atomic) is owned as a whole, recorded as `{}`: equal as a whole.
  if (isPlainObject(owned) && Object.keys(owned).length === 0) return jsonEqual(applied, current);
  const appliedKeys = Object.keys(applied).filter((k) => applied[k] !== undefined);
  const ownedKeys = fieldKeys(ownedObject);
  if (ownedKeys.length !== appliedKeys.length || !appliedKeys.every((k) => ownedKeys.includes(`f:${k}`))) return false;
  return appliedKeys.every((k) => unchanged(applied[k], current[k], ownedObject[`f:${k}`]));
}

function listUnchanged(applied: unknown[], current: unknown, owned: Record<string, unknown>): boolean {
  if (!Array.isArray(current)) return false;
  const members = Object.keys(owned).filter((k) => k !== '.');
  // An atomic list is owned as a whole and has no member entries: it must be equal as a whole.
  if (members.length === 0) return jsonEqual(applied, current);
  if (members.length !== applied.length) return false;
  if (members.every((m) => m.startsWith('k:'))) return mapListUnchanged(applied, current, owned, members);
  if (members.every((m) => m.startsWith('v:'))) {
    const values = members.map((m) => JSON.parse(m.slice(2)) as unknown);
    return applied.every((item) => values.some((v) => jsonEqual(v, item)) && current.some((c) => jsonEqual(c, item)));
  }
  return false;
}

function mapListUnchanged(applied: unknown[], current: unknown[], owned: Record<string, unknown>, members: string[]): boolean {
  const unused = new Set(members);
  return applied.every((item) => {
    if (!isPlainObject(item)) return false;
    const member = [...unused].find((m) => matchesKey(item, JSON.parse(m.slice(2)) as unknown));
    if (member === undefined) return false;
    unused.delete(member);
    const key = JSON.parse(member.slice(2)) as Record<string, unknown>;
    const currentItem = current.find((c) => isPlainObject(c) && matchesKey(c, key));
    return currentItem !== undefined && unchanged(item, currentItem, owned[member]);
  });
}

function matchesKey(item: Record<string, unknown>, key: unknown): boolean {
  return isPlainObject(key) && Object.entries(key).every(([field, value]) => jsonEqual(item[field], value));
}

function fieldKeys(owned: Record<string, unknown>): string[] {
  return Object.keys(owned).filter((k) => k.startsWith('f:'));
}
