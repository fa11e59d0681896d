import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeClient } from '../kube/kube-client.js';
import { KubeApiError } from '../kube/kube-api-error.js';
import { LeaderElector } from './leader-elector.js';
import type { Lease } from './lease-record.js';

/** An API server that holds one Lease in memory: enough for the elector to acquire and renew it. */
function leaseServer(): KubeClient {
  let stored: Lease | undefined;
  let version = 0;
  const client = {
    get: async (path: string) => {
      if (!stored) throw new KubeApiError(404, 'NotFound', 'not found', 'GET', path);
      return stored;
    },
    request: async (_method: string, _path: string, options: { body: Lease }) => {
      stored = { ...options.body, metadata: { ...options.body.metadata, resourceVersion: String(++version) } };
      return stored;
    },
  };
  return client as unknown as KubeClient;
}

const timings = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
let elector: LeaderElector | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await elector?.stop(false);
  elector = undefined;
});

describe('isLeaseValid: the fence before writes outside the API server', () => {
  it('is false before leading, true with the Lease fresh, and false once the monotonic clock passes the Lease less the margin', async () => {
    elector = new LeaderElector({ client: leaseServer(), namespace: 'fleet-system', name: 'fenced', identity: 'replica-a', ...timings });
    expect(elector.isLeaseValid(0)).toBe(false);
    elector.start();
    await expect.poll(() => elector?.isLeader).toBe(true);
    expect(elector.isLeaseValid(1_000)).toBe(true);
    // A margin as long as the Lease leaves no time to write in.
    expect(elector.isLeaseValid(timings.leaseDurationMs)).toBe(false);

    // The process was paused (SIGSTOP, a long GC) for a whole Lease: the monotonic clock moved on, the renew loop has not run.
    const resumedAt = performance.now() + timings.leaseDurationMs;
    vi.spyOn(performance, 'now').mockReturnValue(resumedAt);
    expect(elector.isLeader).toBe(true);
    expect(elector.isLeaseValid(0)).toBe(false);
  });
});
