import { describe, expect, it } from 'vitest';
import type { ConnectionView } from './azure-views.js';
import { awaitedMessages, connectionReadDue, nextConnectionWatch } from './connection-watch.js';

const BACKOFF = { initialMs: 1_000, maxMs: 4_000 };
const conn = (description: string, status: ConnectionView['status'] = 'Pending'): ConnectionView => ({
  id: `id-${description}`,
  name: description,
  status,
  description,
  privateEndpointId: 'pe',
});

describe('connection re-reads', () => {
  it('a message the export has not seen is read at once; an awaited one with backoff up to the cap; none once it is decided', () => {
    expect(connectionReadDue(undefined, ['m1'], [], 0)).toBe(true);
    let watch = nextConnectionWatch(undefined, ['m1'], [], true, 0, BACKOFF);
    expect(watch).toEqual({ messages: ['m1'], attempt: 1, nextReadAt: 1_000 });
    expect(connectionReadDue(watch, ['m1'], [], 999)).toBe(false);
    watch = nextConnectionWatch(watch, ['m1'], [], false, 999, BACKOFF);
    expect(watch.nextReadAt).toBe(1_000);
    expect(connectionReadDue(watch, ['m1'], [], 1_000)).toBe(true);
    const delays = [];
    let now = 1_000;
    for (let i = 0; i < 4; i++) {
      watch = nextConnectionWatch(watch, ['m1'], [conn('m1')], true, now, BACKOFF);
      delays.push((watch.nextReadAt ?? now) - now);
      now = watch.nextReadAt ?? now;
    }
    expect(delays).toEqual([2_000, 4_000, 4_000, 4_000]);
    watch = nextConnectionWatch(watch, ['m1'], [conn('m1', 'Approved')], true, now, BACKOFF);
    expect(watch).toEqual({ messages: ['m1'], attempt: 0 });
    expect(connectionReadDue(watch, ['m1'], [conn('m1', 'Approved')], now + 1e9)).toBe(false);
    expect(connectionReadDue(watch, ['m1', 'm2'], [conn('m1', 'Approved')], now)).toBe(true);
  });

  it('foreign Pending connections never cause a re-read, with or without hub messages', () => {
    expect(connectionReadDue({ messages: [], attempt: 0 }, [], [conn('foreign')], 1e9)).toBe(false);
    expect(connectionReadDue({ messages: ['m1'], attempt: 0 }, ['m1'], [conn('foreign'), conn('m1', 'Approved')], 1e9)).toBe(false);
    expect(awaitedMessages(['m1'], [conn('foreign')])).toEqual(['m1']);
    expect(awaitedMessages(['m1'], [conn('m1', 'Rejected')])).toEqual([]);
  });

  it('a new askedTime from the hub (its origin asked again) is read at once, once', () => {
    const approved = [conn('m1', 'Approved')];
    const watch = nextConnectionWatch(undefined, ['m1'], approved, true, 0, BACKOFF, ['2026-12-01T10:00:00Z']);
    expect(watch).toEqual({ messages: ['m1'], asked: ['2026-12-01T10:00:00Z'], attempt: 0 });
    expect(connectionReadDue(watch, ['m1'], approved, 1, ['2026-12-01T10:00:00Z'])).toBe(false);
    expect(connectionReadDue(watch, ['m1'], approved, 1, ['2026-12-01T10:05:00Z'])).toBe(true);
  });
});
