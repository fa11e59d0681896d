import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ControllerMetrics } from '../observability/controller-metrics.js';
import { createLogger } from '../observability/logger.js';
import { captureLogLines, logsFlushed } from '../test-support/log-capture.js';
import { Controller, type Reconciler } from './controller.js';
import type { ObjectEventHandler, ObjectEventSource } from './object-event.js';
import { done, requeueAfter, retry, terminal } from './reconcile-outcome.js';
import { deferred } from '../util/deferred.js';

const fastRetries = { perKey: { baseMs: 1, maxMs: 5 }, overall: { perSecond: 1e6, burst: 1e6 } };

/** Resolves after the reconciler has been called `count` times. */
function countingReconciler(count: number, outcomeFor: (call: number) => ReturnType<Reconciler>) {
  const calls: string[] = [];
  const reached = deferred();
  const reconcile: Reconciler = async (request) => {
    calls.push(request.name);
    if (calls.length === count) reached.resolve();
    return outcomeFor(calls.length);
  };
  return { calls, reached: reached.promise, reconcile };
}

async function outcomeCount(metrics: ControllerMetrics, outcome: string): Promise<number> {
  const metric = await metrics.registry.getSingleMetric('controller_reconcile_total')!.get();
  return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? -1;
}

describe('Controller', () => {
  it('retries a failing key until it succeeds, then stops', async () => {
    const metrics = new ControllerMetrics(new Registry());
    const { calls, reached, reconcile } = countingReconciler(3, async (call) => (call < 3 ? retry(new Error('transient')) : done()));
    const controller = new Controller({ name: 'c', kind: 'Thing', reconcile, rateLimiter: fastRetries, metrics });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'a' });
    await reached;
    await controller.stop(1000);
    expect(calls).toEqual(['a', 'a', 'a']);
    expect(await outcomeCount(metrics, 'retry')).toBe(2);
    expect(await outcomeCount(metrics, 'done')).toBe(1);
    expect(await outcomeCount(metrics, 'terminal')).toBe(0);
  });

  it('catches a thrown error, counts it as a panic and retries', async () => {
    const metrics = new ControllerMetrics(new Registry());
    const { calls, reached, reconcile } = countingReconciler(2, async (call) => {
      if (call === 1) throw new TypeError('bug');
      return done();
    });
    const controller = new Controller({ name: 'c', kind: 'Thing', reconcile, rateLimiter: fastRetries, metrics });
    controller.start();
    controller.enqueue({ name: 'a' });
    await reached;
    await controller.stop(1000);
    expect(calls).toEqual(['a', 'a']);
    expect(await outcomeCount(metrics, 'panic')).toBe(1);
  });

  it('does not retry a terminal failure, and requeues after the asked delay', async () => {
    const metrics = new ControllerMetrics(new Registry());
    const seen: string[] = [];
    const requeued = deferred();
    const controller = new Controller({
      name: 'c',
      kind: 'Thing',
      rateLimiter: fastRetries,
      metrics,
      reconcile: async ({ name }) => {
        seen.push(name);
        if (name === 'bad') return terminal(new Error('invalid'));
        if (seen.filter((n) => n === 'poll').length === 2) {
          requeued.resolve();
          return done();
        }
        return requeueAfter(20, 'waiting for approval');
      },
    });
    controller.start();
    controller.enqueue({ name: 'bad' });
    const started = performance.now();
    controller.enqueue({ name: 'poll' });
    await requeued.promise;
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
    await controller.stop(1000);
    expect(seen.filter((n) => n === 'bad')).toHaveLength(1);
    expect(await outcomeCount(metrics, 'terminal')).toBe(1);
    expect(await outcomeCount(metrics, 'requeue-after')).toBe(1);
  });

  it('runs different keys in parallel up to the bound and never one key twice at once', async () => {
    let running = 0;
    let maxRunning = 0;
    const runningKeys = new Set<string>();
    let overlap = false;
    const controller = new Controller({
      name: 'c',
      kind: 'Thing',
      concurrency: 3,
      reconcile: async ({ name }) => {
        if (runningKeys.has(name)) overlap = true;
        runningKeys.add(name);
        maxRunning = Math.max(maxRunning, ++running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        running--;
        runningKeys.delete(name);
        return done();
      },
    });
    controller.start();
    for (let round = 0; round < 20; round++) {
      for (const name of ['a', 'b', 'c', 'd', 'e']) controller.enqueue({ name });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await controller.stop(5000);
    expect(overlap).toBe(false);
    expect(maxRunning).toBe(3);
  });

  it('stop waits for running reconciles within the bound, then aborts them', async () => {
    let signal: AbortSignal | undefined;
    const started = deferred();
    const reconciled: string[] = [];
    const controller = new Controller({
      name: 'c',
      kind: 'Thing',
      reconcile: (request, context) => {
        reconciled.push(request.name);
        signal = context.signal;
        started.resolve();
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(done())));
      },
    });
    controller.start();
    controller.enqueue({ name: 'slow' });
    controller.enqueue({ name: 'never-started' });
    await started.promise;
    expect(await controller.stop(20)).toEqual({ abandoned: 1 });
    expect(signal?.aborted).toBe(true);
    // Stopped means no new work: the queued key is dropped, and adds after the stop are ignored.
    controller.enqueue({ name: 'after-stop' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(reconciled).toEqual(['slow']);
  });

  it('frees the worker from detached work and reconciles the key again when that work settles', async () => {
    const work = deferred();
    const reconciled: string[] = [];
    const second = deferred();
    const controller = new Controller({
      name: 'c',
      kind: 'Thing',
      concurrency: 1,
      reconcile: async (request, context) => {
        reconciled.push(request.name);
        if (reconciled.length === 1) context.detach(work.promise);
        if (request.name === 'a' && reconciled.length > 2) second.resolve();
        return done();
      },
    });
    controller.start();
    controller.enqueue({ name: 'a' });
    controller.enqueue({ name: 'b' });
    // The one worker takes b while a's detached work runs.
    await expect.poll(() => reconciled).toEqual(['a', 'b']);
    work.resolve();
    await second.promise;
    expect(reconciled).toEqual(['a', 'b', 'a']);
    expect(await controller.stop(1000)).toEqual({ abandoned: 0 });
  });

  it('stop waits for detached work within the bound, then aborts it and waits for it to end', async () => {
    let ended = false;
    const controller = new Controller({
      name: 'c',
      kind: 'Thing',
      reconcile: async (_request, context) => {
        context.detach(
          new Promise<void>((resolve) =>
            context.signal.addEventListener('abort', () => {
              ended = true;
              resolve();
            }),
          ),
        );
        return done();
      },
    });
    controller.start();
    controller.enqueue({ name: 'slow' });
    await expect.poll(() => controller.queueDepth).toBe(0);
    expect(await controller.stop(20)).toEqual({ abandoned: 1 });
    expect(ended).toBe(true);
  });

  it('gives every reconcile a child logger with its reconcile id, controller, kind, namespace and name', async () => {
    const { stream, lines } = captureLogLines();
    const ids: string[] = [];
    const second = deferred();
    const reconcile: Reconciler = async (_request, { logger, reconcileId }) => {
      ids.push(reconcileId);
      logger.info('working');
      if (ids.length === 1) throw new Error('bug');
      second.resolve();
      return done();
    };
    const logger = createLogger({ stream });
    const controller = new Controller({ name: 'gw', kind: 'Gateway', rateLimiter: fastRetries, logger, reconcile });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'a' });
    await second.promise;
    await controller.stop(1000);
    await logsFlushed();
    expect(new Set(ids).size).toBe(2);
    expect(lines.map((l) => [l.message, l.reconcileId])).toEqual([
      ['working', ids[0]],
      ['reconcile threw; retrying with backoff', ids[0]],
      ['working', ids[1]],
    ]);
    for (const line of lines) expect(line).toMatchObject({ controller: 'gw', kind: 'Gateway', namespace: 'ns', name: 'a' });
    expect(lines[1]).toMatchObject({ level: 'error', error: { message: 'bug' } });
  });

  it('stop returns at once with nothing abandoned when idle', async () => {
    const controller = new Controller({ name: 'c', kind: 'Thing', reconcile: async () => done() });
    controller.start();
    expect(await controller.stop(10_000)).toEqual({ abandoned: 0 });
  });

  it('maps related objects to the requests they affect, old and new on update', () => {
    let emit!: ObjectEventHandler<{ metadata: { name: string; namespace: string }; refs: string[] }>;
    const source: ObjectEventSource<{ metadata: { name: string; namespace: string }; refs: string[] }> = {
      subscribe: (handler) => {
        emit = handler;
        return () => undefined;
      },
    };
    const controller = new Controller({ name: 'c', kind: 'Thing', reconcile: async () => done() });
    controller.watch(source, (object) => object.refs.map((name) => ({ namespace: object.metadata.namespace, name })));
    const metadata = { name: 'svc', namespace: 'ns' };
    emit({ type: 'added', object: { metadata, refs: ['g1'] } });
    emit({ type: 'updated', object: { metadata, refs: ['g2'] }, old: { metadata, refs: ['g1', 'g3'] } });
    expect(controller.queueDepth).toBe(3);
  });

  it('rejects a concurrency that is not a positive integer', () => {
    expect(() => new Controller({ name: 'x', kind: 'Thing', concurrency: 0, reconcile: async () => done() })).toThrow(
      'controller x: concurrency must be a positive integer, got 0',
    );
  });
});
