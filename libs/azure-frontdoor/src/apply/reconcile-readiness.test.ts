import { afterEach, describe, expect, it } from 'vitest';
import { profileName } from '../plan/afd-names.js';
import { originGroupBody } from '../diff/arm-bodies.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway } from '../testing/gateway-builder.js';
import { HUB_IDENTITY, reconcile, startHarness, TEST_SCOPE, writesCounted, type Harness } from '../testing/emulator-harness.js';

const model = buildGateway({
  backends: [{ name: 'web', clusters: [{ name: 'member-1' }] }],
  routes: [{ name: 'shop', rules: [{ backends: [{ name: 'web' }] }] }],
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.emulator.stop();
  h = undefined;
});

/** Ends the emulator's long-running operations as they start, until `work` settles (bounded). */
async function finishing<T>(harness: Harness, work: Promise<T>): Promise<T> {
  let settled = false;
  const result = work.finally(() => (settled = true));
  for (let i = 0; i < 3000 && !settled; i++) {
    harness.emulator.admin.finishOperations();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return result;
}

describe('readiness from provisioningState', () => {
  it('a resource still Updating is pending, named with its state; nothing is written to it; once done, Programmed', async () => {
    // Operations run for an hour unless ended: every in-progress state is observable however slow the machine is.
    h = await startHarness({ emulator: { lroDelayMs: 3_600_000 } });
    const first = await finishing(h, reconcile(h, model));
    expect(first.programmed).toBe(true);

    // Another write to the origin group is in flight (a reconcile interrupted before it ended, say).
    const group = planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph.originGroups[0];
    if (!group) throw new Error('the plan has an origin group');
    await h.clients.cdn.afdOriginGroups.beginCreate(TEST_SCOPE.resourceGroup, profileName(model.gateway), group.ref.originGroup, originGroupBody(group));
    h.emulator.admin.resetCounters();

    const pending = await reconcile(h, model);
    expect(writesCounted(h.emulator)).toBe(0);
    expect(pending.programmed).toBe(false);
    expect(pending.reason).toBe('Pending');
    expect(pending.message).toBe(`origin group ${group.ref.originGroup} Updating`);
    expect(pending.outcome).toEqual({ type: 'requeue-after', afterMs: 15_000, reason: pending.message });
    expect(pending.resources.find((r) => r.kind === 'originGroup')).toMatchObject({ action: 'unchanged', state: 'Updating' });

    expect(h.emulator.admin.finishOperations()).toBe(1);
    const done = await reconcile(h, model);
    expect(done.programmed).toBe(true);
    expect(done.writes).toBe(0);
  });
});
