import { describe, expect, it } from 'vitest';
import { deferred } from '../util/deferred.js';
import { Controller, type Reconciler } from './controller.js';
import { done } from './reconcile-outcome.js';

const BOUND_MS = 60_000;
const later = (ms: number) => performance.now() + ms;

/** A reconciler whose calls for `hung` never end until released; every other key finishes at once. */
function hangingOn(hung: string) {
  const release = deferred();
  const started: string[] = [];
  const reconcile: Reconciler = async (request) => {
    started.push(request.name);
    if (request.name === hung) await release.promise;
    return done();
  };
  return { reconcile, started, release: () => release.resolve() };
}

describe('Controller.stalled (liveness)', () => {
  it('a hung reconcile holding the only worker, with a request waiting past the bound and nothing finished: stalled, saying so', async () => {
    const { reconcile, started, release } = hangingOn('stuck');
    const controller = new Controller({ name: 'gateway', kind: 'Gateway', reconcile });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'stuck' });
    await expect.poll(() => started).toEqual(['stuck']);
    controller.enqueue({ namespace: 'ns', name: 'waiting' });

    expect(controller.stalled(BOUND_MS)).toBeUndefined();
    expect(controller.stalled(BOUND_MS, later(BOUND_MS + 5_000))).toMatch(
      /^controller gateway: 1 request\(s\) waiting, the oldest for 6\d s, 1 reconcile\(s\) running, the oldest for 6\d s; no reconcile finished in the last 6\d s$/,
    );

    // Once the hung reconcile ends, the waiting one runs: progress again.
    release();
    await expect.poll(() => started).toEqual(['stuck', 'waiting']);
    await expect.poll(() => controller.stalled(BOUND_MS, later(BOUND_MS / 2))).toBeUndefined();
    await controller.stop(1_000);
  });

  it('a reconcile that keeps finishing work is not stalled, however long another one runs', async () => {
    const { reconcile, started, release } = hangingOn('slow');
    const controller = new Controller({ name: 'gateway', kind: 'Gateway', reconcile, concurrency: 2 });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'slow' });
    controller.enqueue({ namespace: 'ns', name: 'quick' });
    await expect.poll(() => started.length).toBe(2);
    // The other worker finished 'quick' just now: the slow reconcile alone does not make the agent unhealthy within the bound.
    expect(controller.stalled(BOUND_MS, later(BOUND_MS / 2))).toBeUndefined();
    release();
    await controller.stop(1_000);
  });

  it('work a reconcile detached that never ends, with nothing finished since: stalled, as a running reconcile', async () => {
    const hung = deferred();
    const controller = new Controller({
      name: 'gateway',
      kind: 'Gateway',
      reconcile: async (_request, context) => {
        context.detach(hung.promise);
        return done();
      },
    });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'programming' });
    await expect
      .poll(() => controller.stalled(BOUND_MS, later(BOUND_MS + 5_000)))
      .toMatch(/^controller gateway: 1 reconcile\(s\) running, the oldest for 6\d s; no reconcile finished in the last 6\d s$/);
    expect(controller.stalled(BOUND_MS, later(BOUND_MS / 2))).toBeUndefined();
    hung.resolve();
    await controller.stop(1_000);
  });

  it('a controller whose workers do not run (a standby) is never stalled, whatever waits', async () => {
    const { reconcile } = hangingOn('none');
    const controller = new Controller({ name: 'gateway', kind: 'Gateway', reconcile });
    controller.enqueue({ namespace: 'ns', name: 'a' });
    expect(controller.queueDepth).toBe(1);
    expect(controller.stalled(BOUND_MS, later(10 * BOUND_MS))).toBeUndefined();
  });

  it('an idle controller is never stalled', async () => {
    const { reconcile } = hangingOn('none');
    const controller = new Controller({ name: 'gateway', kind: 'Gateway', reconcile });
    controller.start();
    expect(controller.stalled(BOUND_MS, later(10 * BOUND_MS))).toBeUndefined();
    await controller.stop(1_000);
  });
});
