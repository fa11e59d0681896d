import type { ConnectionView } from './azure-views.js';

export interface BackoffSettings {
  /** First wait before re-reading the connections of a service while the hub's connection is awaited (default 5 s). */
  readonly initialMs: number;
  /** Longest wait (default 5 min). */
  readonly maxMs: number;
}

export const DEFAULT_CONNECTION_BACKOFF: BackoffSettings = { initialMs: 5_000, maxMs: 300_000 };

/** Per export: what the last decision knew. */
export interface ConnectionWatch {
  readonly messages: readonly string[];
  /** The hub's `askedTime`s seen: when one is new, the hub's origin asked again since. */
  readonly asked?: readonly string[];
  /** Re-reads made while waiting, for the backoff. */
  readonly attempt: number;
  /** When the next re-read is due while waiting; undefined when nothing is awaited. */
  readonly nextReadAt?: number;
}

/** The hub-issued messages whose connection has not appeared yet or is still Pending (`connections`: Front Door's only). */
export function awaitedMessages(requestMessages: readonly string[], connections: readonly ConnectionView[]): string[] {
  return requestMessages.filter((message) => {
    const carrying = connections.filter((connection) => connection.description === message);
    return carrying.length === 0 || carrying.some((connection) => connection.status === 'Pending');
  });
}

/**
 * Pure: whether to re-read a service's connections now, outside the resource group's TTL — when the hub issued a
 * message this export has not seen or says its origin asked again (a new `askedTime`: a re-created origin's new
 * connection is on its way, and the one listed may be gone), or when an awaited message's re-read is due. Foreign
 * connections (carrying no hub message) never count, Pending or not.
 */
export function connectionReadDue(
  watch: ConnectionWatch | undefined,
  requestMessages: readonly string[],
  connections: readonly ConnectionView[],
  now: number,
  asked: readonly string[] = [],
): boolean {
  if (requestMessages.some((message) => !(watch?.messages ?? []).includes(message))) return true;
  if (asked.some((time) => !(watch?.asked ?? []).includes(time))) return true;
  if (awaitedMessages(requestMessages, connections).length === 0) return false;
  return watch?.nextReadAt === undefined || now >= watch.nextReadAt;
}

/** Pure: the watch after this reconcile, given the connections it ends with and whether it re-read them. */
export function nextConnectionWatch(
  watch: ConnectionWatch | undefined,
  requestMessages: readonly string[],
  connections: readonly ConnectionView[],
  reread: boolean,
  now: number,
  backoff: BackoffSettings = DEFAULT_CONNECTION_BACKOFF,
  asked: readonly string[] = [],
): ConnectionWatch {
  const seen = { messages: [...requestMessages], ...(asked.length > 0 ? { asked: [...asked] } : {}) };
  if (awaitedMessages(requestMessages, connections).length === 0) return { ...seen, attempt: 0 };
  if (!reread && watch?.nextReadAt !== undefined) return { ...watch, ...seen };
  const attempt = reread ? (watch?.attempt ?? 0) + 1 : (watch?.attempt ?? 0);
  const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
  return { ...seen, attempt, nextReadAt: now + delay };
}
