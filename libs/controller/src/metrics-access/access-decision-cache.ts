import { createHash } from 'node:crypto';

interface Entry<D> {
  readonly decision: D;
  readonly expiresAt: number;
}

/**
 * The key of a bearer token in the cache: its SHA-256, so neither the cache nor anything that prints it holds the
 * token itself (the API server's token cache keys by a hash too).
 */
export const tokenCacheKey = (token: string, verb: string, path: string): string => `${createHash('sha256').update(token).digest('hex')} ${verb} ${path}`;

/**
 * Decisions kept for a while, each with its own time to live, and at most `maxEntries` of them: a stream of distinct
 * tokens (a scan with garbage) evicts the oldest entries instead of growing the process. Expired entries are dropped
 * as they are read or when room is needed.
 */
export class AccessDecisionCache<D> {
  private readonly entries = new Map<string, Entry<D>>();

  constructor(private readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new Error(`maxEntries must be at least 1, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): D | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.decision;
  }

  set(key: string, decision: D, ttlMs: number, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.evict(now);
    this.entries.set(key, { decision, expiresAt: now + ttlMs });
  }

  /** Drops every expired entry; when none was, the oldest one (a Map iterates in insertion order). */
  private evict(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
