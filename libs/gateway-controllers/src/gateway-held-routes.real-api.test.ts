import { eventually } from '@fleet-gateway/controller/test-support';
import { acceptedSpecKey, CONTROLLER_NAME } from '@fleet-gateway/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armWrites, EdgeProbe, linesWithStackTraces, settled, whenProgrammed } from './test-support/hub-probes.js';
import {
  APP_NAMESPACE,
  applyObject,
  conditionOf,
  exportPath,
  gatewayBody,
  gatewayPath,
  readRoute,
  routeBody,
  routePath,
  startHubWithAgent,
  type HubUnderTest,
  type RunningAgent,
} from './test-support/hub-under-test.js';

// Three teams share the Gateway `shared`: team-a serves /a, team-b /b, team-c the catch-all /. Team-b then makes
// the edits a new user tries on a serving route; each one is invalid.
let hub: HubUnderTest;
let agent: RunningAgent;
let edge: EdgeProbe;

beforeAll(async () => {
  ({ hub, agent } = await startHubWithAgent());
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const FLEET = 'networking.fleet.azure.com';
const parent = { name: 'shared', namespace: APP_NAMESPACE };
const serviceImport = (name: string) => ({ group: FLEET, kind: 'ServiceImport', name, port: 80 });
const rule = (path: Record<string, string>, backendRef: object) => ({ matches: [{ path }], backendRefs: [backendRef] });
const teamB = (spec: object) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'team-b', namespace: APP_NAMESPACE },
  spec,
});
const servingPrefix = { type: 'PathPrefix', value: '/b' };

const INVALID_EDITS = [
  {
    name: 'PathPrefix /b to /b*',
    spec: { parentRefs: [parent], rules: [rule({ type: 'PathPrefix', value: '/b*' }, serviceImport('b-web'))] },
    type: 'Accepted',
    reason: 'UnsupportedValue',
    says: 'path PathPrefix /b* contains "*"',
  },
  {
    name: 'backendRef to a core Service',
    spec: { parentRefs: [parent], rules: [rule(servingPrefix, { name: 'b-web', port: 80 })] },
    type: 'ResolvedRefs',
    reason: 'InvalidKind',
    says: 'b-web',
  },
  {
    name: 'backendRef to a missing ServiceImport',
    spec: { parentRefs: [parent], rules: [rule(servingPrefix, serviceImport('nosuch'))] },
    type: 'ResolvedRefs',
    reason: 'BackendNotFound',
    says: 'nosuch',
  },
  {
    name: 'parentRef sectionName that matches nothing',
    spec: { parentRefs: [{ ...parent, sectionName: 'nosuch' }], rules: [rule(servingPrefix, serviceImport('b-web'))] },
    type: 'Accepted',
    reason: 'NoMatchingParent',
    says: 'nosuch',
  },
  {
    name: 'RegularExpression path',
    spec: { parentRefs: [parent], rules: [rule({ type: 'RegularExpression', value: '/b/.*' }, serviceImport('b-web'))] },
    type: 'Accepted',
    reason: 'UnsupportedValue',
    says: 'RegularExpression (/b/.*)',
  },
];

const ours = (route: Awaited<ReturnType<typeof readRoute>>) => route.status?.parents?.find((p) => p.controllerName === CONTROLLER_NAME);
const whenSettled = (name: string) =>
  eventually(
    async () => settled(hub, agent, name),
    (s) => s,
    30_000,
  );

describe('an invalid edit of a programmed route on a shared Gateway', { timeout: 240_000 }, () => {
  it('keeps the edge answering from the last accepted generation with zero ARM writes, across a restart; the ServiceImport gone still withdraws', async () => {
    for (const [service, address] of [
      ['a-web', '10.9.0.1'],
      ['b-web', '10.9.0.2'],
      ['c-web', '10.9.0.3'],
    ] as const)
      await edge.publishServed(service, address);
    await applyObject(hub.client, gatewayPath('shared'), gatewayBody('shared'));
    await applyObject(hub.client, routePath('team-a'), routeBody('team-a', 'shared', [{ path: '/a', backends: [{ name: 'a-web' }] }]));
    await applyObject(hub.client, routePath('team-b'), teamB({ parentRefs: [parent], rules: [rule(servingPrefix, serviceImport('b-web'))] }));
    await applyObject(hub.client, routePath('team-c'), routeBody('team-c', 'shared', [{ path: '/', backends: [{ name: 'c-web' }] }]));
    const host = (await whenProgrammed(hub, 'shared', ['team-a', 'team-b', 'team-c'])).status?.addresses?.[0]?.value ?? '';
    await edge.answers('/b/x', host, 'b-web@member-1');
    // Programmed and accepted in full, generation 1 of team-b is recorded on the route.
    const recorded = await eventually(
      () => readRoute(hub.client, 'team-b'),
      (r) => r.metadata.annotations?.[acceptedSpecKey(`${APP_NAMESPACE}/shared`)] !== undefined,
      30_000,
    );
    expect(JSON.parse(recorded.metadata.annotations?.[acceptedSpecKey(`${APP_NAMESPACE}/shared`)] ?? '{}')).toMatchObject({
      gateway: `${APP_NAMESPACE}/shared`,
      generation: 1,
      spec: { rules: [{ matches: [{ path: servingPrefix }] }] },
    });
    await whenSettled('shared');
    const writes = armWrites(hub);

    for (const edit of INVALID_EDITS) {
      await applyObject(hub.client, routePath('team-b'), teamB(edit.spec));
      const generation = (await readRoute(hub.client, 'team-b')).metadata.generation;
      const judged = await eventually(
        () => readRoute(hub.client, 'team-b'),
        (r) => conditionOf(ours(r), edit.type)?.observedGeneration === generation,
        30_000,
      );
      const failed = conditionOf(ours(judged), edit.type);
      expect(failed, edit.name).toMatchObject({ status: 'False', reason: edit.reason, observedGeneration: generation });
      expect(failed?.message, edit.name).toContain(edit.says);
      expect(failed?.message, edit.name).toContain(`generation ${generation} is not served: serving generation 1`);
      await whenSettled('shared');
      expect(armWrites(hub), edit.name).toBe(writes);
      await hub.emulator.admin.whenPropagated();
      for (const edgeIndex of [0, 1, 2]) expect(await edge.get('/b/x', host, edgeIndex), edit.name).toEqual({ status: 200, body: 'b-web@member-1' });
    }

    // Another team's valid edit goes through while team-b is held.
    await applyObject(hub.client, routePath('team-a'), routeBody('team-a', 'shared', [{ path: '/a2', backends: [{ name: 'a-web' }] }]));
    await edge.answers('/a2/x', host, 'a-web@member-1');
    expect(await edge.get('/b/x', host)).toEqual({ status: 200, body: 'b-web@member-1' });

    // A new agent (nothing in memory) reads Azure and finds nothing to change: the hold survives the restart.
    await whenSettled('shared');
    const beforeRestart = armWrites(hub);
    const mark = hub.logs.lines.length;
    await agent.stop();
    agent = await hub.startAgent();
    await eventually(
      async () => hub.logs.lines.slice(mark).some((l) => l.name === 'shared' && l.message === 'observed Azure') && settled(hub, agent, 'shared'),
      (done) => done,
      30_000,
    );
    expect(armWrites(hub)).toBe(beforeRestart);
    expect(await edge.get('/b/x', host)).toEqual({ status: 200, body: 'b-web@member-1' });
    expect(conditionOf(ours(await readRoute(hub.client, 'team-b')), 'Accepted')?.message).toContain('serving generation 1');

    // A change outside the route withdraws as it does for any route: b-web unexported, its ServiceImport goes, and
    // /b answers the withdrawal's error, never team-c's catch-all.
    await hub.client.delete(exportPath('member-1', 'b-web'));
    const withdrawn = await eventually(
      () => readRoute(hub.client, 'team-b'),
      (r) => /rule 0 is withdrawn/.test(conditionOf(ours(r), 'ResolvedRefs')?.message ?? ''),
      30_000,
    );
    expect(conditionOf(ours(withdrawn), 'ResolvedRefs')?.message).toContain('serving generation 1');
    const answer = await edge.until('/b/x', host, (a) => a.status >= 500, 30_000);
    expect(answer.body).not.toContain('c-web');
    expect(armWrites(hub)).toBeGreaterThan(beforeRestart);
    expect(await edge.get('/a2/x', host)).toEqual({ status: 200, body: 'a-web@member-1' });
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
  });
});
