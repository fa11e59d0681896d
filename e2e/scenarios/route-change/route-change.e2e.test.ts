import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, applyOnMember, read, until } from '../../src/kube-helpers.js';
import { answersThroughEdge, armClients, changePropagated, frontDoorOf, scenario, servingGateway, type EdgeAnswer } from '../../src/scenario.js';
import type { SystemUnderTest } from '../../src/system-under-test.js';

const NAMESPACE = 'e2e-route';
/** After the change has propagated: at least this long and this many requests, alternating the old and new paths. */
const WINDOW = { ms: 10_000, requests: 200 };

type ServiceImport = { status?: { clusters?: { cluster: string }[] } };
type Route = { metadata: { generation?: number }; status?: { parents?: { conditions?: Condition[] }[] } };

/** The path patterns of every AFD route on the Gateway's endpoint, read through ARM. */
async function routePatterns(system: SystemUnderTest): Promise<string[]> {
  const { cdn } = armClients(system);
  const group = system.azure.afdResourceGroup;
  const profile = (await frontDoorOf(system, NAMESPACE, 'change'))?.profile.name ?? '';
  const patterns: string[] = [];
  for await (const endpoint of cdn.afdEndpoints.listByProfile(group, profile)) {
    for await (const route of cdn.routes.listByEndpoint(group, profile, endpoint.name ?? '')) patterns.push(...(route.patternsToMatch ?? []));
  }
  return patterns.sort();
}

const byPath = (answers: readonly EdgeAnswer[], path: string) => answers.filter((a) => a.path === path);

scenario('a route change', ['front-door', 'emulator'], (system) => {
  let hostname = '';

  it('set-up: /old is served by blue (member-1); /new matches no rule', async () => {
    await applyOnMember(system, 'member-1', new URL('member-1.yaml', import.meta.url));
    await applyOnMember(system, 'member-2', new URL('member-2.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    hostname = await servingGateway(system, NAMESPACE, 'change', { members: ['member-1'], path: '/old' });
    // green is imported (the change can name it at once), but no rule routes to it yet.
    await until(
      () => read<ServiceImport>(system.hub, objectPath(RESOURCES.ServiceImport, 'green', NAMESPACE)),
      (si) => (si?.status?.clusters ?? []).length === 1,
    );
    await changePropagated(system);
    const answers = await answersThroughEdge(system, hostname, ['/old', '/new'], { requests: 20 });
    expect(byPath(answers, '/old').filter((a) => a.status !== 200 || a.cluster !== 'member-1')).toEqual([]);
    expect(byPath(answers, '/new').filter((a) => a.status !== 404 || a.cluster !== undefined)).toEqual([]);
  });

  it(`after the change (path /old -> /new, backend blue -> green) has propagated, no request sees the old configuration during ${WINDOW.ms / 1000} s and ${WINDOW.requests}+ requests`, async () => {
    await apply(system.hub, new URL('changed.yaml', import.meta.url));
    await until(
      () => requestThroughEdge(system.azure.edgeUrl, hostname, '/new'),
      (r) => r.status === 200 && r.answer?.cluster === 'member-2',
    );
    await changePropagated(system);

    const route = await read<Route>(system.hub, objectPath(RESOURCES.HTTPRoute, 'change', NAMESPACE));
    const accepted = route?.status?.parents?.[0]?.conditions?.find((c) => c.type === 'Accepted');
    expect(accepted).toMatchObject({ status: 'True', observedGeneration: route?.metadata.generation });
    // AFD holds the new path only.
    const patterns = await routePatterns(system);
    expect(patterns.some((p) => p.startsWith('/new'))).toBe(true);
    expect(patterns.filter((p) => p.startsWith('/old'))).toEqual([]);

    const answers = await answersThroughEdge(system, hostname, ['/old', '/new'], WINDOW);
    expect(answers.length).toBeGreaterThanOrEqual(WINDOW.requests);
    // The old path no longer reaches any backend: AFD has no route for it (404, as for any path no rule matches).
    expect(byPath(answers, '/old').filter((a) => a.status !== 404 || a.cluster !== undefined)).toEqual([]);
    // The new path is served by the new backend only: blue (member-1) never answers.
    expect(byPath(answers, '/new').filter((a) => a.status !== 200 || a.cluster !== 'member-2')).toEqual([]);
  });
});
