import type { CdnManagementClient } from '@azure/arm-cdn';
import { setTimeout as sleep } from 'node:timers/promises';
import { classifyArmError, classifyOperationFailure, isNotFound, type ArmFailure, type ArmRequestCount } from '@fleet-gateway/arm-runtime';
import { exponentialDelay } from '@fleet-gateway/controller';
import { refName, type AfdRef } from '../plan/afd-refs.js';
import { mapBounded } from '../observe/observe.js';
import { readOperationStatus, type WriteAnswer, type Written } from './arm-write.js';
import { PROCESS_OPERATION_DURATIONS, type OperationDurations } from './operation-durations.js';
import { collectionOf, listCollection, readResource } from './resource-reads.js';

/** When ARM sends no Retry-After: the SDK poller's default interval. */
const DEFAULT_POLL_INTERVAL_MS = 2_000;
/** Reads of a running operation back off to at most this interval. */
const MAX_POLL_INTERVAL_MS = 60_000;

/** Time for the follower: replaceable so that tests move it instead of waiting. */
export interface OperationClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const REAL_CLOCK: OperationClock = { now: Date.now, sleep: (ms, signal) => sleep(ms, undefined, { signal }) };

/** How operations are followed; every field has a default fit for Azure. */
export interface FollowSettings {
  /** First read of an operation when ARM sends no Retry-After and no duration was learned (default 2 s). */
  readonly pollIntervalMs?: number;
  readonly operationClock?: OperationClock;
  /** Learned durations (default: this process's). */
  readonly operationDurations?: OperationDurations;
  /** Told before the follower waits `ms` for operations to end: a caller that will not wait so long can go on elsewhere. */
  readonly onOperationWait?: (ms: number) => void;
}

/** The follow settings of a wider options object, for passing them on. */
export function followSettings(options: FollowSettings): FollowSettings {
  return {
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.operationClock ? { operationClock: options.operationClock } : {}),
    ...(options.operationDurations ? { operationDurations: options.operationDurations } : {}),
    ...(options.onOperationWait ? { onOperationWait: options.onOperationWait } : {}),
  };
}

export interface FollowOptions extends FollowSettings {
  /** Ends the following: the caller's abort or the operation deadline. */
  readonly signal: AbortSignal;
  readonly requests?: ArmRequestCount;
  /** Reads in flight at once (default 8). */
  readonly concurrency?: number;
}

/** A write ARM runs as a long-running operation: `refresh` (a POST action) is followed by its status alone. */
export interface FollowedWrite {
  readonly ref: AfdRef;
  readonly action: 'create' | 'update' | 'delete' | 'refresh';
  readonly answer: WriteAnswer;
  readonly sentAt: number;
}

export type FollowResult =
  | { readonly outcome: 'done'; readonly resource?: Written }
  | { readonly outcome: 'failed'; readonly failure: ArmFailure }
  /** The signal ended the following first. */
  | { readonly outcome: 'in-flight' };

interface Tracking {
  readonly write: FollowedWrite;
  readonly baseMs: number;
  dueAt: number;
  reads: number;
  result?: FollowResult;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

function isRunning(state: string | undefined): boolean {
  return state !== undefined && !TERMINAL.has(state.toLowerCase());
}

/**
 * Follows the long-running operations of one batch of writes (a level of an apply) to their end with the fewest
 * reads that can tell anything: nothing is read before ARM's Retry-After nor before the duration such operations took
 * so far in this process (`OperationDurations`); then one read serves every write it can see. A collection (the
 * origins of a group, the routes of an endpoint, a profile's groups, …) holding two or more of the writes is listed
 * once; a write alone is read by GET, which also gives its body (no final GET). A resource whose provisioningState is
 * Succeeded is done, one absent after a delete is done, one still Creating/Updating/Deleting is read again after a
 * capped backoff; Failed costs one more read, of the operation's status, for ARM's error. Reads = Σ over rounds of
 * the collections read, not one per write per poll.
 */
export async function followOperations(
  cdn: CdnManagementClient,
  rg: string,
  writes: readonly FollowedWrite[],
  options: FollowOptions,
): Promise<FollowResult[]> {
  const clock = options.operationClock ?? REAL_CLOCK;
  const durations = options.operationDurations ?? PROCESS_OPERATION_DURATIONS;
  const call = { abortSignal: options.signal, ...(options.requests ? { onResponse: options.requests.onResponse } : {}) };
  const tracked: Tracking[] = writes.map((write) => {
    const baseMs = write.answer.retryAfterMs ?? options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const expected = durations.expectedMs(write.ref.kind, write.action) ?? 0;
    return { write, baseMs, dueAt: write.sentAt + Math.max(baseMs, expected), reads: 0 };
  });

  const settle = (t: Tracking, result: FollowResult): void => {
    t.result = result;
    durations.ended(t.write.ref.kind, t.write.action, clock.now() - t.write.sentAt, t.reads);
  };
  // A read that failed says nothing of how long the operation takes.
  const unread = (t: Tracking, failure: ArmFailure): void => {
    t.result = { outcome: 'failed', failure };
  };
  const readStatus = async (t: Tracking, resource?: Written): Promise<void> => {
    const url = t.write.answer.statusUrl;
    if (url === undefined) {
      settle(t, { outcome: 'failed', failure: classifyOperationFailure('OperationFailed', `provisioningState ${resource?.provisioningState}`) });
      return;
    }
    const status = await readOperationStatus(cdn, url, t.write.answer.spec, {
      abortSignal: options.signal,
      ...(options.requests ? { requests: options.requests } : {}),
    });
    const state = status.status.toLowerCase();
    if (state === 'succeeded') settle(t, { outcome: 'done', ...(resource && t.write.action !== 'delete' ? { resource } : {}) });
    else if (state === 'failed' || state === 'canceled') {
      const code = status.error?.code ?? (state === 'canceled' ? 'OperationCanceled' : 'OperationFailed');
      settle(t, { outcome: 'failed', failure: classifyOperationFailure(code, status.error?.message ?? `the operation ended ${status.status}`) });
    }
  };
  // What one read showed of a write's resource (undefined: absent).
  const observe = async (t: Tracking, resource: Written | undefined): Promise<void> => {
    const state = resource?.provisioningState;
    if (isRunning(state)) return;
    if (t.write.action === 'delete') {
      if (resource === undefined) settle(t, { outcome: 'done' });
      else await readStatus(t, resource);
      return;
    }
    if (resource !== undefined && (state === undefined || state.toLowerCase() === 'succeeded')) settle(t, { outcome: 'done', resource });
    else await readStatus(t, resource);
  };
  const guarded = (members: Tracking[], read: () => Promise<void>) => async () => {
    for (const t of members) t.reads += 1;
    try {
      await read();
    } catch (error) {
      const failure = classifyArmError(error);
      for (const t of members) if (!t.result && !options.signal.aborted) unread(t, failure);
    }
  };

  for (;;) {
    const pending = tracked.filter((t) => !t.result);
    if (pending.length === 0 || options.signal.aborted) break;
    const wait = Math.min(...pending.map((t) => t.dueAt)) - clock.now();
    if (wait > 0) {
      options.onOperationWait?.(wait);
      try {
        await clock.sleep(wait, options.signal);
      } catch {
        break;
      }
    }
    const now = clock.now();
    // The writes one read can see: those of one collection (a refresh only by its status, the profile only by GET).
    const groupOf = (t: Tracking) => (t.write.action === 'refresh' ? undefined : collectionOf(t.write.ref));
    const byCollection = new Map<string, Tracking[]>();
    for (const t of pending) {
      const key = groupOf(t);
      if (key !== undefined) byCollection.set(key, [...(byCollection.get(key) ?? []), t]);
    }
    const covered = new Set<Tracking>();
    const reads: (() => Promise<void>)[] = [];
    for (const t of pending.filter((p) => p.dueAt <= now)) {
      if (covered.has(t)) continue;
      const key = groupOf(t);
      const members = (key === undefined ? undefined : byCollection.get(key)) ?? [t];
      const ref = t.write.ref;
      if (t.write.action === 'refresh') {
        reads.push(guarded([t], () => readStatus(t)));
      } else if (members.length >= 2 && ref.kind !== 'profile') {
        members.forEach((m) => covered.add(m));
        reads.push(
          guarded(members, async () => {
            const listed = new Map<string, Written>();
            for await (const item of listCollection(cdn, rg, ref, call)) listed.set((item.name ?? '').toLowerCase(), item);
            for (const m of members) await observe(m, listed.get(refName(m.write.ref).toLowerCase()));
          }),
        );
      } else {
        reads.push(
          guarded([t], async () => {
            let resource: Written | undefined;
            try {
              resource = await readResource(cdn, rg, ref, call);
            } catch (error) {
              if (!isNotFound(error)) throw error;
            }
            await observe(t, resource);
          }),
        );
      }
      covered.add(t);
    }
    await mapBounded(reads, options.concurrency ?? 8, (read) => read());
    for (const t of covered) if (!t.result) t.dueAt = clock.now() + exponentialDelay({ baseMs: t.baseMs, maxMs: MAX_POLL_INTERVAL_MS }, t.reads - 1);
  }
  return tracked.map((t) => t.result ?? { outcome: 'in-flight' });
}
