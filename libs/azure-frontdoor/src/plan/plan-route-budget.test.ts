import { resolveGateway, type GlobalGateway } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { planFrontDoor } from './plan-front-door.js';
import { isWritable } from './plan-types.js';
import { backendRef, httpRoute, hubInputs, pathMatch, type TeamService } from '../testing/hub-inputs-builder.js';

const services: TeamService[] = [
  { namespace: 'team-a', name: 'web', clusters: ['member-1'] },
  { namespace: 'team-b', name: 'api', clusters: ['member-2'] },
  { namespace: 'team-c', name: 'site', clusters: ['member-1'] },
];
const route = (namespace: string, name: string, created: string, path: string, backend: string, header?: string) =>
  httpRoute(namespace, name, created, [
    ...(header ? [{ matches: [pathMatch('PathPrefix', path, { headers: [{ name: 'x-v', value: header }] })], backendRefs: [backendRef(backend)] }] : []),
    { matches: [pathMatch('PathPrefix', path)], backendRefs: [backendRef(backend)] },
  ]);

function model(routes: ReturnType<typeof route>[]): GlobalGateway {
  const { model: m } = resolveGateway(hubInputs(services, routes));
  if (!m) throw new Error('the Gateway must keep its model');
  return m;
}

const older = [route('team-a', 'shop', '2026-01-01T00:00:00Z', '/shop', 'web', '1'), route('team-b', 'api', '2026-01-02T00:00:00Z', '/api', 'api')];
const newest = route('team-c', 'home', '2026-01-03T00:00:00Z', '/home', 'site');
const patterns = (m: GlobalGateway, limits: Parameters<typeof planFrontDoor>[1]['capacityLimits']) =>
  planFrontDoor(m, { hubIdentity: 'hub-1', ...(limits ? { capacityLimits: limits } : {}) })
    .graph.routes.flatMap((r) => r.patterns)
    .sort();

describe('routes per profile and the composite route metric, by age', () => {
  it('the newest HTTPRoute past the routes limit waits (TooManyRoutes, its patterns held); the older ones are planned and the plan is writable', () => {
    const m = model([...older, newest]);
    const plan = planFrontDoor(m, { hubIdentity: 'hub-1', capacityLimits: { routes: 2 } });
    expect(plan.problems.map((p) => [p.code, p.source?.namespace, p.source?.name, p.blocksWrites])).toEqual([['TooManyRoutes', 'team-c', 'home', false]]);
    expect(plan.problems[0]?.message).toContain("team-c/home: the Gateway's AFD profile would need more than its 2 routes");
    expect(plan.graph.routes.flatMap((r) => r.patterns).sort()).toEqual(['/api', '/api/*', '/shop', '/shop/*']);
    expect(plan.graph.held.map((h) => `${h.pattern} ${h.protocol}`)).toEqual(['/home Http', '/home/* Http']);
    expect(plan.graph.held[0]?.cause).toBe('team-c/home waits for room in the AFD profile (routes or composite route metric)');
    // The rule set of the planned /shop route is kept with its rules; the held route's group is not created.
    expect(plan.graph.ruleSets).toHaveLength(1);
    expect(plan.graph.rules.length).toBeGreaterThan(0);
    expect(plan.graph.originGroups.some((g) => g.backends.includes('team-c/site:8080'))).toBe(false);
    expect(plan.capacity).toEqual([]);
    expect(isWritable(plan)).toBe(true);
  });

  it('the composite route metric limits the same way, and within both limits nothing waits', () => {
    const m = model([...older, newest]);
    expect(patterns(m, { compositeRouteMetric: 5 })).toEqual(['/api', '/api/*', '/shop', '/shop/*']);
    expect(patterns(m, undefined)).toEqual(['/api', '/api/*', '/home', '/home/*', '/shop', '/shop/*']);
    expect(planFrontDoor(m, { hubIdentity: 'hub-1' }).problems).toEqual([]);
  });

  it('age decides, not the order of the objects: made the newest, the shop route waits instead', () => {
    const m = model([route('team-a', 'shop', '2026-02-01T00:00:00Z', '/shop', 'web', '1'), older[1] as ReturnType<typeof route>, newest]);
    expect(patterns(m, { routes: 2 })).toEqual(['/api', '/api/*', '/home', '/home/*']);
  });
});
