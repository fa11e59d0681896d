import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '@fleet-gateway/azure-emulator';
import { buildGateway } from '../testing/gateway-builder.js';
import { reconcile, startHarness, readsCounted, writesCounted, type Harness } from '../testing/emulator-harness.js';
import { OperationDurations } from './operation-durations.js';
import type { OperationClock } from './operation-follower.js';
import { deleteFrontDoor } from './delete-front-door.js';
import { HUB_IDENTITY, TEST_SCOPE } from '../testing/emulator-harness.js';

// Five teams' routes, each to its own backend in three clusters: 1 profile, 1 endpoint, 5 groups, 15 origins, 5 routes.
const model = buildGateway({
  backends: ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, clusters: [{ name: 'member-1' }, { name: 'member-2' }, { name: 'member-3' }] })),
  routes: ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, rules: [{ paths: [`/${name}`], backends: [{ name }] }] })),
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.emulator.stop();
  h = undefined;
});

interface Request {
  readonly method: string;
  readonly url: string;
  /** Simulated time of the request. */
  readonly at: number;
}

/**
 * Time moved by the follower's waits instead of passing: every running operation ends `durationMs` after the writes
 * that started it (the emulator runs them for an hour unless ended). The waits are recorded, never slept.
 */
function simulatedTime(emulator: RunningEmulator, durationMs: number): OperationClock & { requests: Request[]; record(method: string, url: string): void } {
  let now = 0;
  let running = 0;
  const requests: Request[] = [];
  return {
    requests,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      running += ms;
      if (running >= durationMs) {
        emulator.admin.finishOperations();
        running = 0;
      }
    },
    record: (method, url) => void requests.push({ method, url, at: now }),
  };
}

async function coldStart(durationMs: number, retryAfterSeconds: number) {
  h = await startHarness({ emulator: { lroDelayMs: 3_600_000, lroRetryAfterSeconds: retryAfterSeconds } });
  const time = simulatedTime(h.emulator, durationMs);
  recordRequests(h, time);
  const report = await reconcile(h, model, { pollIntervalMs: undefined, operationClock: time, operationDurations: new OperationDurations() });
  return { report, time };
}

function recordRequests(harness: Harness, time: ReturnType<typeof simulatedTime>): void {
  harness.clients.cdn.pipeline.addPolicy({
    name: 'record-requests',
    sendRequest: (request, next) => {
      time.record(request.method, request.url);
      return next(request);
    },
  });
}

describe('following long-running operations costs a bounded number of reads per write, whatever their duration', () => {
  it.each([
    ['100 ms', 100, 1],
    ['3 min', 180_000, 10],
  ])(
    'a cold create of a five-route Gateway whose operations take %s: at most 1.5 reads per write, observe included',
    async (_, durationMs, retryAfterSeconds) => {
      const { report, time } = await coldStart(durationMs, retryAfterSeconds);
      expect(report.failures).toEqual([]);
      expect(report.programmed).toBe(true);
      expect(report.writes).toBe(27);
      expect(writesCounted(h!.emulator)).toBe(27);
      // The reads counted are the reads ARM answered.
      expect(readsCounted(h!.emulator)).toBe(report.reads);
      expect(report.reads / report.writes).toBeLessThanOrEqual(1.5);
      // No operation status is read while operations run: lists and GETs see them, and none ended Failed.
      expect(time.requests.filter((r) => /operationstatuses|operationresults/i.test(r.url))).toEqual([]);
      // Nothing is read before the Retry-After of the writes sent last.
      let lastWrite: Request | undefined;
      for (const request of time.requests) {
        if (request.method !== 'GET') lastWrite = request;
        else if (lastWrite) expect(request.at - lastWrite.at).toBeGreaterThanOrEqual(retryAfterSeconds * 1000);
      }
    },
  );

  it("a cold create at Azure's recorded durations (the emulator's azure timings, with jitter): at most 1.5 reads per write", async () => {
    // One clock for both: the emulator ends each operation when it passes the operation's drawn duration.
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock: OperationClock = { now: () => now, sleep: async (ms) => void (now += ms) };
    h = await startHarness({ emulator: { operationTimings: 'azure', operationTimingSeed: 7, clock: () => now } });
    const report = await reconcile(h, model, { pollIntervalMs: undefined, operationClock: clock, operationDurations: new OperationDurations() });
    expect(report.failures).toEqual([]);
    expect(report.programmed).toBe(true);
    expect(readsCounted(h.emulator)).toBe(report.reads);
    expect(report.reads / report.writes).toBeLessThanOrEqual(1.5);
  });

  it("an operation that ends Failed costs one read of its status, and reports ARM's code and cause as before", async () => {
    h = await startHarness({ emulator: { lroDelayMs: 3_600_000, lroRetryAfterSeconds: 10 } });
    const time = simulatedTime(h.emulator, 180_000);
    recordRequests(h, time);
    h.emulator.admin.injectFault({
      kind: 'lro-failure',
      method: 'PUT',
      pathPattern: '/originGroups/og-a-',
      code: 'OriginGroupInvalid',
      message: 'The health probe path is not reachable.',
    });
    const report = await reconcile(h, model, { operationClock: time, operationDurations: new OperationDurations() });
    // Classified as the SDK's poller's failure was (reconcile-faults.test.ts checks the whole message).
    expect(report.failures.map((f) => [f.ref.kind, f.action, f.failure.class, f.failure.code, f.failure.cause, f.owners.map((o) => o.name)])).toEqual([
      ['originGroup', 'create', 'terminal', 'OriginGroupInvalid', 'the operation ended Failed: The health probe path is not reachable.', ['a']],
    ]);
    expect(time.requests.filter((r) => /operationstatuses/i.test(r.url))).toHaveLength(1);
    // Route a is held back with its group; the four other teams are programmed.
    expect(report.resources.filter((r) => r.kind === 'route' && r.action === 'created')).toHaveLength(4);
  });

  it('a read that follows operations and fails fails the writes it was to see, classified as ARM answered it; the others go on', async () => {
    h = await startHarness({ emulator: { lroDelayMs: 3_600_000, lroRetryAfterSeconds: 10 } });
    const time = simulatedTime(h.emulator, 180_000);
    // Only the follower lists the groups in a cold create (observe finds no profile).
    h.emulator.admin.injectFault({
      kind: 'status',
      status: 403,
      method: 'GET',
      pathPattern: '/originGroups$',
      count: 100,
      code: 'AuthorizationFailed',
      message: 'no read',
    });
    const report = await reconcile(h, model, { operationClock: time, operationDurations: new OperationDurations() });
    expect(report.failures.map((f) => [f.ref.kind, f.failure.class, f.failure.code])).toEqual(
      Array(5).fill(['originGroup', 'terminal', 'AuthorizationFailed']),
    );
    expect(report.resources.find((r) => r.kind === 'endpoint')).toMatchObject({ action: 'created' });
    expect(report.resources.filter((r) => r.kind === 'origin' || r.kind === 'route').every((r) => r.action === 'skipped')).toBe(true);
  });

  it('deletes: removed routes and their groups, and the whole profile, are followed to their end the same way', async () => {
    h = await startHarness({ emulator: { lroDelayMs: 3_600_000, lroRetryAfterSeconds: 10 } });
    const time = simulatedTime(h.emulator, 180_000);
    const follow = { operationClock: time, operationDurations: new OperationDurations() };
    expect((await reconcile(h, model, follow)).programmed).toBe(true);
    // A reconcile that writes nothing reads what observe reads.
    const observeReads = (await reconcile(h, model, follow)).reads;
    const fewer = buildGateway({
      backends: [{ name: 'a', clusters: [{ name: 'member-1' }, { name: 'member-2' }, { name: 'member-3' }] }],
      routes: [{ name: 'a', rules: [{ paths: ['/a'], backends: [{ name: 'a' }] }] }],
    });
    h.emulator.admin.resetCounters();
    const withdrawn = await reconcile(h, fewer, follow);
    expect(withdrawn.failures).toEqual([]);
    expect(withdrawn.programmed).toBe(true);
    expect(withdrawn.resources.filter((r) => r.action === 'deleted').map((r) => r.kind)).toEqual([...Array(4).fill('route'), ...Array(4).fill('originGroup')]);
    // Per level one list (the routes, then the groups, their origins going with them), once the learned duration has passed.
    expect(readsCounted(h.emulator) - withdrawn.reads).toBe(0);
    expect(withdrawn.reads - observeReads).toBe(2);
    expect(h.emulator.admin.dumpResources().resources.filter((r) => r.type.endsWith('/routes'))).toHaveLength(1);

    h.emulator.admin.resetCounters();
    const deleted = await deleteFrontDoor(h.clients, model.gateway, { hubIdentity: HUB_IDENTITY, scope: TEST_SCOPE, ...follow });
    expect(deleted).toMatchObject({ result: 'deleted', outcome: { type: 'done' } });
    // The ownership checks (2), then one GET of the profile once it is gone.
    expect(readsCounted(h.emulator)).toBe(3);
    expect(h.emulator.admin.dumpResources().resources).toEqual([]);
  });
});
