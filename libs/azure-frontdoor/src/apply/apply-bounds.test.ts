import { afterEach, describe, expect, it } from 'vitest';
import { allRefs, planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway } from '../testing/gateway-builder.js';
import { HUB_IDENTITY, reconcile, startHarness, writesCounted, type Harness } from '../testing/emulator-harness.js';

const model = buildGateway({
  backends: [{ name: 'web', clusters: [{ name: 'member-1' }] }],
  routes: [{ name: 'shop', rules: [{ backends: [{ name: 'web' }] }] }],
});
const planned = allRefs(planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph).length;

let h: Harness | undefined;
afterEach(async () => {
  await h?.emulator.stop();
  h = undefined;
});

describe('a write whose long-running operation outlasts its deadline', () => {
  it('is in flight, neither done nor failed: pending and looked at again soon; the next reconcile observes it', async () => {
    // Operations run for an hour unless ended, so the deadline always passes first.
    h = await startHarness({ emulator: { lroDelayMs: 3_600_000 } });
    const first = await reconcile(h, model, { operationDeadlineMs: 200 });
    expect(first.failures).toEqual([]);
    expect(first.programmed).toBe(false);
    expect(first.reason).toBe('Pending');
    expect(first.outcome).toMatchObject({ type: 'requeue-after', afterMs: 15_000 });
    expect(first.resources.find((r) => r.kind === 'profile')).toMatchObject({ action: 'in-flight', cause: expect.stringContaining('within 0.2 s') });
    expect(first.pending[0]).toMatch(/^profile .* create in flight: ARM had not finished the create within 0\.2 s/);
    // Nothing was written under a profile that may not exist yet.
    expect(writesCounted(h.emulator)).toBe(1);
    expect(first.resources.filter((r) => r.action === 'skipped')).toHaveLength(planned - 1);

    // ARM finishes it meanwhile: the next reconcile reads the profile as it is and goes on.
    expect(h.emulator.admin.finishOperations()).toBe(1);
    h.emulator.admin.resetCounters();
    const second = await reconcile(h, model, { operationDeadlineMs: 200 });
    expect(second.resources.find((r) => r.kind === 'profile')).toMatchObject({ action: 'unchanged', state: 'Succeeded' });
    expect(writesCounted(h.emulator, 'Microsoft.Cdn/profiles')).toBe(0);
  });
});

describe('the fence asked before each level of writes', () => {
  it('a reason before the first level writes nothing at all', async () => {
    h = await startHarness();
    const report = await reconcile(h, model, { fence: () => 'the leader Lease is no longer valid' });
    expect(writesCounted(h.emulator)).toBe(0);
    expect(report.writes).toBe(0);
    expect(report.programmed).toBe(false);
    expect(report.reason).toBe('Pending');
    expect(report.resources.every((r) => r.action === 'skipped' && r.cause === 'not attempted: the leader Lease is no longer valid')).toBe(true);
  });

  it('a reason after the first level stops the writes there, mid-plan', async () => {
    h = await startHarness();
    let asked = 0;
    const report = await reconcile(h, model, { fence: () => (++asked > 1 ? 'the leader Lease is no longer valid' : undefined) });
    // The first level is the profile alone; the fence is asked once more and nothing else is written.
    expect(writesCounted(h.emulator)).toBe(1);
    expect(report.resources.filter((r) => r.action === 'created').map((r) => r.kind)).toEqual(['profile']);
    expect(report.resources.filter((r) => r.action === 'skipped')).toHaveLength(planned - 1);
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it("a write the clients' fence stops inside a level is skipped with its reason, not failed", async () => {
    let asked = 0;
    h = await startHarness({ writeFence: () => (++asked > 1 ? 'the leader Lease is no longer valid' : undefined) });
    const report = await reconcile(h, model);
    expect(writesCounted(h.emulator)).toBe(1);
    expect(report.failures).toEqual([]);
    expect(report.reason).toBe('Pending');
    const skipped = report.resources.filter((r) => r.action === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.some((r) => r.cause === 'not attempted: the leader Lease is no longer valid')).toBe(true);
  });
});
