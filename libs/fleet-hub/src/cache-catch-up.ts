import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject, ObjectStore } from '@fleet-gateway/controller';

/** One object this reconcile wrote: its cache key and the resourceVersion the cache held before the write. */
export interface WrittenObject {
  readonly store: ObjectStore<KubeObject>;
  readonly key: string;
  readonly before: string | undefined;
}

const pollMs = 25;

/**
 * Holds the reconcile until every cache shows a version newer than the one it held before our write (or the
 * object gone), bounded by `timeoutMs`. The work queue never runs a key twice at once, so the next reconcile of
 * this key reads our own writes and does not repeat them from a stale cache (client-go's "wait for cache" habit).
 * Returns false when the bound ran out; the next event brings the key back anyway.
 */
export async function awaitCacheCatchUp(written: readonly WrittenObject[], signal: AbortSignal, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const caughtUp = () => written.every((w) => w.store.get(w.key)?.metadata.resourceVersion !== w.before);
  while (!caughtUp()) {
    if (Date.now() > deadline || signal.aborted) return false;
    await sleep(pollMs, undefined, { signal }).catch(() => undefined);
  }
  return true;
}
