import { isPlainObject, jsonEqual } from '../util/deep-equal.js';
import { stampConditions, type DesiredCondition } from './conditions.js';

/**
 * How entries of keyed lists inside a status are matched to the existing ones, by property name: for example
 * `{ listeners: ['name'], parents: ['parentRef', 'controllerName'] }`. Lists named `conditions` are always keyed
 * by `type`.
 */
export type ListKeys = Readonly<Record<string, readonly string[]>>;

/**
 * Walks a desired status alongside the current one and stamps every `conditions` list it finds (see
 * stampConditions), matching keyed-list entries by their key fields so nested conditions (a listener's, a route
 * parent's) keep their transition times too. Returns a new value; neither input is modified.
 */
export function stampStatus<T>(desired: T, current: unknown, now: Date, listKeys: ListKeys = {}): T {
  return stampValue(desired, current, now, listKeys, undefined) as T;
}

function stampValue(desired: unknown, current: unknown, now: Date, listKeys: ListKeys, property: string | undefined): unknown {
  if (Array.isArray(desired)) {
    const currentList = Array.isArray(current) ? current : [];
    if (property === 'conditions' && desired.every(isCondition)) {
      return stampConditions(currentList.filter(isCondition), desired, now);
    }
    const keys = property === undefined ? undefined : listKeys[property];
    if (!keys) return desired;
    return desired.map((entry) => stampValue(entry, findByKeys(currentList, entry, keys), now, listKeys, undefined));
  }
  if (!isPlainObject(desired)) return desired;
  const currentObject = isPlainObject(current) ? current : {};
  return Object.fromEntries(Object.entries(desired).map(([key, value]) => [key, stampValue(value, currentObject[key], now, listKeys, key)]));
}

/** The entry of `list` whose key fields equal those of `entry`. */
export function findByKeys(list: readonly unknown[], entry: unknown, keys: readonly string[]): unknown {
  if (!isPlainObject(entry)) return undefined;
  return list.find((candidate) => isPlainObject(candidate) && keys.every((k) => jsonEqual(candidate[k], entry[k])));
}

function isCondition(value: unknown): value is DesiredCondition {
  return isPlainObject(value) && typeof value.type === 'string' && typeof value.status === 'string';
}
