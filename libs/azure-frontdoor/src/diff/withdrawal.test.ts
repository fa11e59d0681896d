import { describe, expect, it } from 'vitest';
import { diffFrontDoor } from './diff.js';
import { EMPTY_GRAPH } from '../observe/observe.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { observedFromGraph } from '../testing/observed-from-graph.js';

const scope = { subscriptionId: '00000000-0000-4000-8000-000000000001', resourceGroup: 'rg' };
const fixture = (shopBackend: string): GatewayFixture => ({
  backends: [
    { name: 'web', clusters: [{ name: 'member-1', address: '10.1.0.4' }] },
    { name: 'fresh', clusters: [{ name: 'member-3', unknown: true }] },
    { name: 'other', clusters: [{ name: 'member-1', address: '10.1.0.9' }] },
  ],
  routes: [
    { name: 'shop', rules: [{ paths: ['/shop'], backends: [{ name: shopBackend }] }] },
    { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] },
  ],
});
const plan = (f: GatewayFixture) => planFrontDoor(buildGateway(f), { hubIdentity: 'hub' }).graph;
const shopRoute = (graph: ReturnType<typeof plan>) => graph.routes.find((r) => r.ref.route.startsWith('rt-shop-0-'));

describe('a group that would have no enabled origin after the diff (pure)', () => {
  it('an existing route stays on the group it uses now; that group is kept exactly as observed', () => {
    const before = observedFromGraph(plan(fixture('web')), scope);
    const current = shopRoute(plan(fixture('web')))?.originGroup as string;
    const diff = diffFrontDoor(plan(fixture('fresh')), before, scope);
    expect(shopRoute(diff.graph)).toMatchObject({ originGroup: current, withdrawn: false });
    expect(diff.operations.filter((op) => op.ref.kind === 'originGroup' || op.ref.kind === 'origin')).toEqual([]);
    expect(diff.kept.find((k) => k.ref.kind === 'originGroup')?.reason).toContain('has no enabled origin to take over (member data unknown)');
  });

  it('a route that does not exist yet goes to the sink, and the group that cannot serve is not created', () => {
    const diff = diffFrontDoor(plan(fixture('fresh')), EMPTY_GRAPH, scope);
    const route = shopRoute(diff.graph);
    expect(route).toMatchObject({ originGroup: expect.stringMatching(/^og-withdrawn-/), withdrawn: true });
    const createdGroups = diff.operations
      .filter((op) => op.action === 'create' && op.ref.kind === 'originGroup')
      .map((op) => (op.ref.kind === 'originGroup' ? op.ref.originGroup : ''));
    expect(createdGroups.map((g) => g.slice(0, g.lastIndexOf('-'))).sort()).toEqual(['og-other', 'og-withdrawn']);
  });
});
