import { describe, expect, it } from 'vitest';
import { diffFrontDoor } from './diff.js';
import { EMPTY_GRAPH } from '../observe/observe.js';
import { orderOperations } from './operations.js';
import { allRefs, planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { observedFromGraph } from '../testing/observed-from-graph.js';

const scope = { subscriptionId: '00000000-0000-4000-8000-000000000001', resourceGroup: 'rg' };
const fixture: GatewayFixture = {
  backends: [
    { name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2', weight: 3 }] },
    { name: 'api', clusters: [{ name: 'member-1' }] },
  ],
  routes: [
    {
      name: 'shop',
      rules: [
        {
          paths: ['/shop'],
          backends: [{ name: 'web' }],
          filters: [{ type: 'RequestHeaderModifier', set: [{ name: 'x-a', value: '1' }], add: [], remove: [] }],
        },
      ],
    },
    {
      name: 'api',
      rules: [
        { matches: [{ path: { type: 'PathPrefix', value: '/api' }, method: 'GET', headers: [], queryParams: [] }], backends: [{ name: 'api' }] },
        { paths: ['/api'], backends: [{ name: 'web' }] },
      ],
    },
  ],
};
const plan = (f: GatewayFixture = fixture) => planFrontDoor(buildGateway(f), { hubIdentity: 'hub' }).graph;

describe('diffFrontDoor (pure)', () => {
  it('against nothing: one create per planned resource', () => {
    const graph = plan();
    const diff = diffFrontDoor(graph, EMPTY_GRAPH, scope);
    expect(diff.operations.map((o) => o.action)).toEqual(allRefs(graph).map(() => 'create'));
  });

  it('against the applied graph: nothing to do, server-set fields ignored', () => {
    const graph = plan();
    const diff = diffFrontDoor(graph, observedFromGraph(graph, scope), scope);
    expect(diff.operations).toEqual([]);
    expect(diff.unchanged).toHaveLength(allRefs(graph).length);
  });

  it('one weight: one update that names the change', () => {
    const before = plan();
    const after = plan({
      ...fixture,
      backends: [{ name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2', weight: 1 }] }, fixture.backends[1] as GatewayFixture['backends'][number]],
    });
    const diff = diffFrontDoor(after, observedFromGraph(before, scope), scope);
    expect(diff.operations.map((o) => [o.action, o.ref.kind, o.changes])).toEqual([['update', 'origin', ['weight 333 -> 1000']]]);
  });

  it('a removed annotation-managed field is removed too (absent is managed, not ignored)', () => {
    const withHeader = plan({
      ...fixture,
      backends: [
        { ...(fixture.backends[0] as GatewayFixture['backends'][number]), hostHeader: 'web.internal' },
        fixture.backends[1] as GatewayFixture['backends'][number],
      ],
    });
    const diff = diffFrontDoor(plan(), observedFromGraph(withHeader, scope), scope);
    expect(diff.operations.map((o) => o.changes)).toEqual([['originHostHeader web.internal -> null'], ['originHostHeader web.internal -> null']]);
  });

  it('foreign tags on our profile are kept; only our tags are compared', () => {
    const graph = plan();
    const observed = observedFromGraph(graph, scope);
    const profile = observed.profile as NonNullable<typeof observed.profile>;
    const withExtra = { ...observed, profile: { ...profile, tags: { ...profile.tags, costCenter: '42' } } };
    expect(diffFrontDoor(graph, withExtra, scope).operations).toEqual([]);
  });

  it('a resource whose provisioning failed is written again', () => {
    const graph = plan();
    const observed = observedFromGraph(graph, scope);
    const failed = { ...observed, routes: observed.routes.map((r, i) => (i === 0 ? { ...r, arm: { ...r.arm, provisioningState: 'Failed' } } : r)) };
    expect(diffFrontDoor(graph, failed, scope).operations.map((o) => [o.action, o.ref.kind, o.changes])).toEqual([
      ['update', 'route', ['provisioningState Failed']],
    ]);
  });

  it('unknown member data: an existing origin is kept as is, a missing one is not created', () => {
    const known = plan();
    const unknown = plan({
      ...fixture,
      backends: [
        {
          name: 'web',
          clusters: [
            { name: 'member-1', unknown: true },
            { name: 'member-2', weight: 3 },
          ],
        },
        fixture.backends[1] as GatewayFixture['backends'][number],
      ],
    });
    const kept = diffFrontDoor(unknown, observedFromGraph(known, scope), scope);
    expect(kept.operations.filter((o) => o.ref.kind === 'origin' && o.action === 'delete')).toEqual([]);
    expect(kept.kept.map((k) => k.reason)).toEqual([expect.stringContaining('member data of cluster member-1 for store/web:8080 is unknown')]);
    const fresh = diffFrontDoor(unknown, EMPTY_GRAPH, scope);
    expect(fresh.notProgrammed).toHaveLength(1);
    expect(fresh.operations.filter((o) => o.ref.kind === 'origin')).toHaveLength(2);
  });

  it('a route that takes a pattern from another is written after it (AFD refuses a pattern held twice)', () => {
    const before = plan();
    const exact: GatewayFixture = {
      ...fixture,
      routes: [
        ...fixture.routes,
        { name: 'exact', rules: [{ matches: [{ path: { type: 'Exact', value: '/shop' }, headers: [], queryParams: [] }], backends: [{ name: 'api' }] }] },
      ],
    };
    const levels = orderOperations(diffFrontDoor(plan(exact), observedFromGraph(before, scope), scope).operations);
    expect(
      levels.map((level) => level.map((o) => `${o.action} ${o.ref.kind} ${o.ref.kind === 'route' ? o.ref.route.split('-').slice(0, 3).join('-') : ''}`.trim())),
    ).toEqual([['update route rt-shop-0'], ['create route rt-exact-0']]);
    expect(levels[0]?.[0]?.changes).toEqual(['patternsToMatch ["/shop","/shop/*"] -> ["/shop/*"]']);
  });

  it('a rule in error holds its routing: its route, group, origins, rule set and rules are kept, not deleted', () => {
    const before = plan();
    const mixed: GatewayFixture = {
      ...fixture,
      backends: [...fixture.backends, { name: 'pl', clusters: [{ name: 'member-9', privateLink: {} }] }],
      routes: [
        fixture.routes[0] as GatewayFixture['routes'][number],
        {
          name: 'api',
          rules: [
            {
              matches: [{ path: { type: 'PathPrefix', value: '/api' }, method: 'GET', headers: [], queryParams: [] }],
              backends: [{ name: 'api' }, { name: 'pl' }],
            },
            { paths: ['/api'], backends: [{ name: 'web' }] },
          ],
        },
      ],
    };
    const after = plan(mixed);
    expect(after.held.map((h) => h.pattern)).toEqual(['/api', '/api/*']);
    const diff = diffFrontDoor(after, observedFromGraph(before, scope), scope);
    expect(diff.operations).toEqual([]);
    expect(diff.kept.map((k) => k.ref.kind).sort()).toEqual(['origin', 'originGroup', 'route', 'rule', 'ruleSet']);
  });
});
