import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@fleet-gateway/controller/test-support';
import { profileOf, programmedOf, whenImported } from './test-support/hub-probes.js';
import {
  applyGatewayWithRoute,
  applyObject,
  gatewayBody,
  gatewayPath,
  publishExport,
  routeBody,
  routePath,
  SCOPE,
  startHubWithAgent,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';

// Azure's long-running operations take tens of seconds to minutes. Here every operation runs until the test ends it
// (admin.finishOperations), so what runs while Gateways are being programmed is counted, never timed.
let hub: HubUnderTest;
let agent: RunningAgent;
const HELD_MS = 3_600_000;

beforeAll(async () => {
  ({ hub, agent } = await startHubWithAgent({ emulator: { lroDelayMs: HELD_MS } }));
}, 120_000);
afterAll(async () => {
  await hub?.stop();
});

interface EmulatedOperation {
  readonly resourceKey: string;
  readonly method: string;
  readonly status: string;
}

/** Operations the emulator runs now on resources of `profile`. */
const runningUnder = (profile: string): EmulatedOperation[] =>
  (hub.emulator.admin.dumpResources().operations as EmulatedOperation[]).filter(
    (o) => o.status === 'InProgress' && o.resourceKey.includes(`/profiles/${profile.toLowerCase()}`),
  );

/** Ends the running operations, again as new ones start, until `check` holds. */
const finishingUntil = (check: () => Promise<boolean>, timeoutMs = 60_000) =>
  eventually(
    () => {
      hub.emulator.admin.finishOperations();
      return check();
    },
    (ok) => ok,
    timeoutMs,
  );

const programmingTasks = async () => (await agent.registry.getSingleMetric('fleet_gateway_programming_tasks')!.get()).values[0]?.value;
/** Programmed, and no programming of a newer model runs. */
const isProgrammed = async (name: string) => {
  const programmed = await programmedOf(hub, name);
  return programmed?.status === 'True' && !programmed.message.includes('being programmed');
};

/** Route writes Azure took for `profile` (each a long-running operation). */
const routeWritesOf = (profile: string): number =>
  (hub.emulator.admin.dumpResources().operations as EmulatedOperation[]).filter(
    (o) => o.method === 'PUT' && o.resourceKey.includes(`/profiles/${profile.toLowerCase()}/`) && o.resourceKey.includes('/routes/'),
  ).length;

/** The route patterns Azure holds in a profile. */
async function routePatterns(profile: string): Promise<string[]> {
  const patterns: string[] = [];
  for await (const endpoint of hub.clients.cdn.afdEndpoints.listByProfile(SCOPE.resourceGroup, profile))
    for await (const route of hub.clients.cdn.routes.listByEndpoint(SCOPE.resourceGroup, profile, endpoint.name!))
      patterns.push(...(route.patternsToMatch ?? []));
  return patterns.sort();
}

/**
 * A Gateway with a route to its `<name>-web` export, whose programming is held at its first level (the profile create
 * in flight; its route is written levels later): its profile.
 */
async function programmingHeld(name: string, publicAddress: string): Promise<string> {
  await publishExport(hub.client, { cluster: 'member-1', service: `${name}-web`, publicAddress });
  await whenImported(hub, `${name}-web`, ['member-1']);
  await applyGatewayWithRoute(hub.client, name, { backend: `${name}-web` });
  const profile = await profileOf(hub, name);
  expect(
    await eventually(
      () => runningUnder(profile).length,
      (n) => n === 1,
      30_000,
    ),
  ).toBe(1);
  return profile;
}

describe('Gateways programmed apart from the controller workers', { timeout: 180_000 }, () => {
  it('runs more programmings than the four workers at once, and another team’s route change is written while they all run', async () => {
    await publishExport(hub.client, { cluster: 'member-1', service: 'other-web', publicAddress: '10.9.0.1' });
    await whenImported(hub, 'other-web', ['member-1']);
    await applyGatewayWithRoute(hub.client, 'other', { backend: 'other-web' });
    const otherProfile = await profileOf(hub, 'other');
    // Its route too: the Gateway may be programmed once before its route is seen.
    expect(
      await finishingUntil(async () => (await isProgrammed('other')) && (await routePatterns(otherProfile)).length > 0 && (await programmingTasks()) === 0),
    ).toBe(true);

    const created = ['new-1', 'new-2', 'new-3', 'new-4', 'new-5', 'new-6'];
    for (const name of created) await applyObject(hub.client, gatewayPath(name), gatewayBody(name));
    const profiles = await Promise.all(created.map((name) => profileOf(hub, name)));
    // Each new Gateway's profile create is in flight, six at once on four workers.
    expect(
      await eventually(
        () => profiles.filter((p) => runningUnder(p).length > 0).length,
        (n) => n === created.length,
        30_000,
      ),
    ).toBe(created.length);
    expect(await programmingTasks()).toBe(created.length);
    // Each says what it waits for.
    for (const name of created) {
      const pending = await eventually(
        () => programmedOf(hub, name),
        (c) => c?.message.includes('Azure writes in flight') === true,
        30_000,
      );
      expect(pending).toMatchObject({ status: 'False', reason: 'Pending', observedGeneration: 1 });
      expect(pending?.message).toMatch(/being programmed in Azure \(Azure writes in flight since \d{4}-/);
    }

    // The other team adds a rule: its Gateway's write to Azure goes out while the six still run.
    const routeWrites = routeWritesOf(otherProfile);
    await applyObject(
      hub.client,
      routePath('other'),
      routeBody('other', 'other', [
        { path: '/', backends: [{ name: 'other-web' }] },
        { path: '/v2', backends: [{ name: 'other-web' }] },
      ]),
    );
    expect(
      await eventually(
        () => runningUnder(otherProfile).length,
        (n) => n > 0,
        30_000,
      ),
    ).toBeGreaterThan(0);
    expect(routeWritesOf(otherProfile)).toBeGreaterThan(routeWrites);
    for (const profile of profiles) expect(runningUnder(profile)).toHaveLength(1);

    expect(await finishingUntil(async () => (await Promise.all(['other', ...created].map(isProgrammed))).every(Boolean))).toBe(true);
    expect(await routePatterns(otherProfile)).toEqual(['/', '/*', '/v2', '/v2/*']);
    expect(await eventually(programmingTasks, (n) => n === 0)).toBe(0);
    expect(hub.emulator.admin.requestTotal({ status: 409 })).toBe(0);
  });

  it('a change while a Gateway is programmed stops that programming at its next step; the new model is programmed after it, never beside it', async () => {
    const profile = await programmingHeld('fenced', '10.9.0.2');
    const routeWrites = routeWritesOf(profile);

    await applyObject(hub.client, routePath('fenced'), routeBody('fenced', 'fenced', [{ path: '/v2', backends: [{ name: 'fenced-web' }] }]));
    const waiting = await eventually(
      () => programmedOf(hub, 'fenced'),
      (c) => c?.message.includes('waiting for the programming of an earlier model') === true,
      30_000,
    );
    expect(waiting).toMatchObject({ status: 'False', reason: 'Pending' });
    // Still the first model's operation, and nothing else.
    expect(runningUnder(profile)).toHaveLength(1);

    expect(await finishingUntil(() => isProgrammed('fenced'))).toBe(true);
    expect(await routePatterns(profile)).toEqual(['/v2', '/v2/*']);
    // Only the new model's route was written: the first programming stopped before its route, and no write met
    // another one's operation on the same resource.
    expect(routeWritesOf(profile) - routeWrites).toBe(1);
    expect(hub.emulator.admin.requestTotal({ status: 409 })).toBe(0);
  });

  it('deleting a Gateway while it is programmed stops the programming first, then deletes the profile', async () => {
    const profile = await programmingHeld('doomed', '10.9.0.3');
    await hub.client.delete(gatewayPath('doomed'));

    const gone = await finishingUntil(async () => (await hub.client.get(gatewayPath('doomed')).catch((error: unknown) => error)) instanceof Error);
    expect(gone).toBe(true);
    await expect(hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile)).rejects.toMatchObject({ statusCode: 404 });
    // The programming stopped at its next level: nothing under the profile was written after its create.
    expect(routeWritesOf(profile)).toBe(0);
    expect(hub.emulator.admin.requestTotal({ status: 409 })).toBe(0);
    expect(await programmingTasks()).toBe(0);
  });
});
