import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject, ObjectStore } from '@fleet-gateway/controller';

const pollMs = 25;

/**
 * The writes of one reconcile, per cached object, and a wait until the caches show them. The work queue never runs
 * a key twice at once, so holding the key until then means the next reconcile reads our own writes and does not
 * repeat them from a stale cache (client-go's "wait for cache" habit). An object counts as caught up once its cache
 * holds a version that is neither the one this reconcile read nor one of its own intermediate writes: its last
 * write, a later one by someone else, or no object at all after a delete.
 */
export class WrittenObjects {
  private readonly entries = new Map<string, { store: ObjectStore<KubeObject>; stale: Set<string | undefined>; last: string | undefined }>();

  get size(): number {
    return this.entries.size;
  }

  /** `read` is the object as this reconcile read it (undefined if it created it); `written` what the server returned (undefined after a delete). */
  record(store: ObjectStore<KubeObject>, key: string, read: KubeObject | undefined, written: KubeObject | undefined): void {
    const entry = this.entries.get(key);
    if (entry) entry.stale.add(entry.last);
    else this.entries.set(key, { store, stale: new Set([read?.metadata.resourceVersion]), last: undefined });
    this.entries.get(key)!.last = written?.metadata.resourceVersion;
  }

  /** False when `timeoutMs` ran out first; the next event brings the key back anyway. */
  async awaitCaches(signal: AbortSignal, timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const caughtUp = () => [...this.entries].every(([key, { store, stale }]) => !stale.has(store.get(key)?.metadata.resourceVersion));
    while (!caughtUp()) {
      if (Date.now() > deadline || signal.aborted) return false;
      await sleep(pollMs, undefined, { signal }).catch(() => undefined);
    }
    return true;
  }
}
