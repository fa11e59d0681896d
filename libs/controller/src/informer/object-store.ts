import type { KubeObject } from '../kube/kube-object.js';
import { objectKey } from '../queue/request-key.js';
import { deepFreeze } from '../util/deep-freeze.js';

/** Returns the index values an object is filed under (none, one or several). */
export type IndexFunction<T extends KubeObject> = (object: T) => readonly string[];

export const namespaceIndexName = 'namespace';

export function namespaceIndex<T extends KubeObject>(object: T): readonly string[] {
  return object.metadata.namespace ? [object.metadata.namespace] : [];
}

/** Files objects under the value of one label; objects without the label are not indexed. */
export function labelIndex<T extends KubeObject>(labelKey: string): IndexFunction<T> {
  return (object) => {
    const value = object.metadata.labels?.[labelKey];
    return value === undefined ? [] : [value];
  };
}

/** An index's values to the keys filed under each, and the function that files them. */
interface StoreIndex<T extends KubeObject> {
  readonly index: Map<string, Set<string>>;
  readonly indexer: IndexFunction<T>;
}

export interface StoreDiff<T> {
  readonly added: T[];
  readonly updated: { readonly old: T; readonly object: T }[];
  readonly deleted: T[];
}

/**
 * The informer's cache: objects by `namespace/name`, plus secondary indexes kept in step on every change. Stored
 * objects are deep-frozen unless `freeze` is false, so that a reconciler that mutates one (instead of computing a new
 * value) fails at the mutation; the default is on, as tests and development want it, and an agent's process turns it
 * off in production (its main.ts decides). Status and specs must be computed as new values either way.
 */
export class ObjectStore<T extends KubeObject> {
  private readonly objects = new Map<string, T>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  /** Each index with its function, walked on every change. */
  private readonly indexers: StoreIndex<T>[] = [];

  /** Whether stored objects are deep-frozen. */
  readonly freezesObjects: boolean;

  constructor(indexers: Readonly<Record<string, IndexFunction<T>>> = {}, options: { readonly freeze?: boolean } = {}) {
    this.freezesObjects = options.freeze ?? true;
    for (const [name, indexer] of Object.entries(indexers)) this.addIndexer(name, indexer);
  }

  /**
   * Adds an index to a store that may already hold objects (as client-go's AddIndexers), so that a controller can
   * index a cache another registered; the objects already stored are indexed at once.
   */
  addIndex(name: string, indexer: IndexFunction<T>): void {
    if (this.indexes.has(name)) throw new Error(`an index named ${name} exists already; expected a new name`);
    const added = this.addIndexer(name, indexer);
    for (const [key, object] of this.objects) this.index(key, object, [added]);
  }

  private addIndexer(name: string, indexer: IndexFunction<T>): StoreIndex<T> {
    const entry = { index: new Map<string, Set<string>>(), indexer };
    this.indexes.set(name, entry.index);
    this.indexers.push(entry);
    return entry;
  }

  get(key: string): T | undefined {
    return this.objects.get(key);
  }

  getByName(name: string, namespace?: string): T | undefined {
    return this.objects.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.objects.values()];
  }

  get size(): number {
    return this.objects.size;
  }

  byIndex(indexName: string, value: string): T[] {
    const index = this.indexes.get(indexName);
    if (!index) {
      throw new Error(`no index named ${indexName}; this store has ${[...this.indexes.keys()].join(', ') || 'none'}`);
    }
    return [...(index.get(value) ?? [])].map((key) => this.objects.get(key)!);
  }

  /** Stores the object (frozen unless told not to) and returns the one it replaced; `key` if the caller has it. */
  upsert(object: T, key = objectKey(object)): T | undefined {
    const old = this.objects.get(key);
    this.objects.set(key, this.freezesObjects ? deepFreeze(object) : object);
    if (old) this.reindex(key, old, object);
    else this.index(key, object);
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.objects.delete(key);
    return old;
  }

  /** Replaces the whole content (after a list) and says what changed; an unchanged resourceVersion is no update. */
  replace(objects: readonly T[]): StoreDiff<T> {
    const diff: StoreDiff<T> = { added: [], updated: [], deleted: [] };
    const seen = new Set<string>();
    for (const object of objects) {
      const key = objectKey(object);
      seen.add(key);
      const existing = this.objects.get(key);
      if (existing && existing.metadata.resourceVersion === object.metadata.resourceVersion) continue;
      this.upsert(object, key);
      if (existing) diff.updated.push({ old: existing, object });
      else diff.added.push(object);
    }
    for (const object of this.retainOnly(seen)) diff.deleted.push(object);
    return diff;
  }

  /** Removes every object whose key is not in `keys` and returns the removed ones (a streamed list's deletions). */
  retainOnly(keys: ReadonlySet<string>): T[] {
    const removed: T[] = [];
    // A Map may lose the entry being visited without disturbing the iteration, so no copy is needed.
    for (const [key, object] of this.objects) {
      if (keys.has(key)) continue;
      this.remove(key);
      removed.push(object);
    }
    return removed;
  }

  private index(key: string, object: T, indexers = this.indexers): void {
    for (const { index, indexer } of indexers) for (const value of indexer(object)) fileIn(index, value, key);
  }

  private unindex(key: string, object: T): void {
    for (const { index, indexer } of this.indexers) for (const value of indexer(object)) fileOut(index, value, key);
  }

  /** Moves the key from the old object's index values to the new one's; most updates keep every value and touch none. */
  private reindex(key: string, old: T, object: T): void {
    for (const { index, indexer } of this.indexers) {
      const before = indexer(old);
      const after = indexer(object);
      if (before.length === after.length && before.every((value, i) => value === after[i])) continue;
      for (const value of before) fileOut(index, value, key);
      for (const value of after) fileIn(index, value, key);
    }
  }
}

function fileIn(index: Map<string, Set<string>>, value: string, key: string): void {
  let keys = index.get(value);
  if (!keys) index.set(value, (keys = new Set()));
  keys.add(key);
}

function fileOut(index: Map<string, Set<string>>, value: string, key: string): void {
  const keys = index.get(value);
  keys?.delete(key);
  if (keys?.size === 0) index.delete(value);
}
