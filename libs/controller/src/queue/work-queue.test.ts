import { afterEach, describe, expect, it, vi } from 'vitest';
import { RetryRateLimiter } from './retry-rate-limiter.js';
import { WorkQueue } from './work-queue.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Lets queued microtasks and promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkQueue', () => {
  it('queues a key once however often it is added', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.depth).toBe(2);
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(queue.depth).toBe(0);
  });

  it('never hands out a key that is being processed; re-queues it on done if it was added meanwhile', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    const first = await queue.get();
    queue.add('a');
    queue.add('a');
    expect(queue.depth).toBe(0);
    let second: string | undefined;
    void queue.get().then((key) => (second = key));
    await settle();
    expect(second).toBeUndefined();
    queue.done(first!);
    await settle();
    expect(second).toBe('a');
    expect(queue.depth).toBe(0);
  });

  it('folds repeats added in one synchronous batch even while a worker is already waiting', async () => {
    const queue = new WorkQueue();
    const waiting = queue.get();
    // One event mapped to b through its new object and to a and b through its old one.
    queue.add('b');
    queue.add('c');
    queue.add('a');
    queue.add('b');
    expect(await waiting).toBe('b');
    queue.done('b');
    const rest = [await queue.get(), await queue.get()];
    expect(rest).toEqual(['c', 'a']);
    expect(queue.depth).toBe(0);
  });

  it('does not re-queue on done when nothing was added during processing', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    queue.done((await queue.get())!);
    queue.done('a');
    expect(queue.depth).toBe(0);
  });

  it('hands a key to a worker already waiting', async () => {
    const queue = new WorkQueue();
    const waiting = queue.get();
    queue.add('x');
    expect(await waiting).toBe('x');
  });

  it('addAfter keeps the earliest of two delays', async () => {
    vi.useFakeTimers();
    const queue = new WorkQueue();
    queue.addAfter('a', 1000);
    queue.addAfter('a', 100);
    queue.addAfter('a', 5000);
    vi.advanceTimersByTime(99);
    expect(queue.depth).toBe(0);
    vi.advanceTimersByTime(1);
    expect(queue.depth).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    vi.advanceTimersByTime(10_000);
    expect(queue.depth).toBe(0);
  });

  it('addRateLimited backs off per key and forget resets it', () => {
    vi.useFakeTimers();
    const rateLimiter = new RetryRateLimiter({ perKey: { baseMs: 10, maxMs: 1000 }, overall: { perSecond: 1e6, burst: 1e6 } });
    const queue = new WorkQueue({ rateLimiter });
    expect([queue.addRateLimited('a'), queue.addRateLimited('a'), queue.addRateLimited('a')]).toEqual([10, 20, 40]);
    queue.forget('a');
    expect(queue.addRateLimited('a')).toBe(10);
  });

  it('shutDown releases waiting workers and drops queued and delayed keys', async () => {
    vi.useFakeTimers();
    const queue = new WorkQueue();
    const waiting = queue.get();
    queue.shutDown();
    expect(await waiting).toBeUndefined();
    queue.add('a');
    queue.addAfter('b', 10);
    vi.advanceTimersByTime(100);
    expect(queue.depth).toBe(0);
    expect(await queue.get()).toBeUndefined();
  });

  it('reports depth, adds, retries and the time a key waited', async () => {
    const depths: number[] = [];
    const waits: number[] = [];
    let adds = 0;
    let retries = 0;
    const queue = new WorkQueue({
      observer: {
        depth: (d) => depths.push(d),
        waited: (s) => waits.push(s),
        added: () => adds++,
        retried: () => retries++,
      },
    });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    await queue.get();
    queue.addRateLimited('z');
    expect(adds).toBe(2);
    expect(retries).toBe(1);
    expect(depths).toEqual([1, 2, 1]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(0);
    queue.shutDown();
  });
});
