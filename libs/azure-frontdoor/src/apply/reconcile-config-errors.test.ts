import { resolveGateway, type GlobalGateway, type HubInputs } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../observe/report-types.js';
import { reconcile, useHarness, writesCounted, type Harness } from '../testing/emulator-harness.js';
import { backendRef, httpRoute, hubInputs, pathMatch, type TeamService } from '../testing/hub-inputs-builder.js';

/**
 * Issue 11, through resolve and the emulator: a ServiceImport's annotation error keeps what was last programmed for
 * its rules (zero writes for them) while every other team's change is still written; and the route-level cases that
 * used to stop every write (case-only path collisions, `*` in paths, duplicate refs) are programmed around.
 */
const PROBE = 'networking.fleet.azure.com/afd-health-probe-path';

function services(webAnnotations?: Record<string, string>, extra: TeamService[] = []): TeamService[] {
  return [
    { namespace: 'team-a', name: 'web', clusters: ['member-1', 'member-2'], ...(webAnnotations ? { annotations: webAnnotations } : {}) },
    { namespace: 'team-b', name: 'api', clusters: ['member-2'] },
    { namespace: 'team-b', name: 'api-v2', clusters: ['member-1'] },
    { namespace: 'team-c', name: 'site', clusters: ['member-3'] },
    ...extra,
  ];
}

function routes(apiV2Weight = 0, extra: ReturnType<typeof httpRoute>[] = []) {
  return [
    httpRoute('team-a', 'shop', '2026-01-01T00:00:00Z', [{ matches: [pathMatch('PathPrefix', '/shop')], backendRefs: [backendRef('web')] }]),
    httpRoute('team-b', 'api', '2026-01-02T00:00:00Z', [
      { matches: [pathMatch('PathPrefix', '/api')], backendRefs: [backendRef('api', 1), ...(apiV2Weight > 0 ? [backendRef('api-v2', apiV2Weight)] : [])] },
    ]),
    httpRoute('team-c', 'home', '2026-01-03T00:00:00Z', [{ matches: [pathMatch('PathPrefix', '/')], backendRefs: [backendRef('site')] }]),
    ...extra,
  ];
}

function modelOf(inputs: HubInputs): GlobalGateway {
  const { model, verdicts } = resolveGateway(inputs);
  expect(verdicts.gateway?.conditions[0]).toMatchObject({ type: 'Accepted', status: 'True' });
  if (!model) throw new Error('the Gateway must keep its model');
  return model;
}

/** Every AFD resource with the body ARM holds for it, by id. */
function bodies(h: Harness): Map<string, string> {
  return new Map(
    h.emulator.admin
      .dumpResources()
      .resources.filter((r) => r.type.startsWith('microsoft.cdn/'))
      .map((r) => [r.id, JSON.stringify(r.body)]),
  );
}

const h = useHarness();

async function programmed(inputs: HubInputs): Promise<Map<string, string>> {
  const report = await reconcile(h(), modelOf(inputs));
  expect(report.failures).toEqual([]);
  expect(report.programmed).toBe(true);
  h().emulator.admin.resetCounters();
  return bodies(h());
}

const patternsOf = (h: Harness) =>
  h.emulator.admin
    .dumpResources()
    .resources.filter((r) => r.type === 'microsoft.cdn/profiles/afdendpoints/routes')
    .flatMap((r) => (r.body as { properties?: { patternsToMatch?: string[] } }).properties?.patternsToMatch ?? [])
    .sort();

describe("a programmed ServiceImport's annotation error keeps its rules as last programmed", () => {
  it.each([
    ['an invalid value', { [PROBE]: 'healthz' }, ['networking.fleet.azure.com/afd-health-probe-path', '"healthz"']],
    ['a Gateway key', { 'networking.fleet.azure.com/afd-sku': 'Premium_AzureFrontDoor' }, ['networking.fleet.azure.com/afd-sku', 'belongs on a Gateway']],
  ])('%s: zero writes, named in the report with key and value; fixed, it converges', async (_name, annotations, words) => {
    const before = await programmed(hubInputs(services(), routes()));
    const broken = await reconcile(h(), modelOf(hubInputs(services(annotations), routes())));
    expect(broken.failures).toEqual([]);
    expect(broken.writes).toBe(0);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(bodies(h())).toEqual(before);
    expect(broken.problems.map((p) => [p.code, p.source?.namespace, p.source?.name])).toEqual([['InvalidBackendConfiguration', 'team-a', 'shop']]);
    for (const word of [...words, 'serving the last programmed configuration']) expect(broken.problems[0]?.message).toContain(word);
    expect(broken.resources.find((r) => r.kind === 'route' && r.action === 'kept')?.cause).toContain('kept as last programmed: it serves /shop over Http');

    const fixed = await reconcile(h(), modelOf(hubInputs(services(), routes())));
    expect(fixed.problems).toEqual([]);
    expect(fixed.writes).toBe(0);
    expect(bodies(h())).toEqual(before);
  });

  it("another team's change is written meanwhile; the held backend's route, group and origins stay byte for byte", async () => {
    const before = await programmed(hubInputs(services(), routes()));
    const report = await reconcile(h(), modelOf(hubInputs(services({ [PROBE]: 'healthz' }), routes(3))));
    expect(report.failures).toEqual([]);
    expect(report.writes).toBeGreaterThan(0);
    const after = bodies(h());
    const shopIds = [...before.keys()].filter((id) => /\/routes\/rt-shop-|\/origingroups\/og-web-/i.test(id));
    expect(shopIds.length).toBeGreaterThanOrEqual(4);
    for (const id of shopIds) expect([id, after.get(id)]).toEqual([id, before.get(id)]);
    expect([...after.keys()].some((id) => /\/origingroups\/og-api-/i.test(id) && !before.has(id))).toBe(true);
  });

  it('a backend that was never programmed is not programmed; everything else is', async () => {
    const newcomer: TeamService = { namespace: 'team-d', name: 'fresh', clusters: ['member-1'], annotations: { [PROBE]: 'healthz' } };
    const extra = [
      httpRoute('team-d', 'fresh', '2026-02-01T00:00:00Z', [{ matches: [pathMatch('PathPrefix', '/fresh')], backendRefs: [backendRef('fresh')] }]),
    ];
    const report: ReconcileReport = await reconcile(h(), modelOf(hubInputs(services(undefined, [newcomer]), routes(0, extra))));
    expect(report.failures).toEqual([]);
    expect(report.problems.map((p) => [p.code, p.source?.name])).toEqual([['InvalidBackendConfiguration', 'fresh']]);
    expect(patternsOf(h())).toEqual(['/*', '/', '/api', '/api/*', '/shop', '/shop/*'].sort());
  });
});

describe('route-level cases that used to stop every write for the Gateway are programmed around', () => {
  it('case 1: /shop and /Shop; case 2: /foo*; case 3: duplicate refs past the maximum; an unrelated weight change is still written', async () => {
    await programmed(hubInputs(services(), routes()));
    const extra = [
      httpRoute('team-d', 'cased', '2026-02-01T00:00:00Z', [{ matches: [pathMatch('Exact', '/Shop')], backendRefs: [backendRef('site', 1, 'team-c')] }]),
      httpRoute('team-a', 'stars', '2026-02-02T00:00:00Z', [
        { matches: [pathMatch('PathPrefix', '/foo*')], backendRefs: [backendRef('web')] },
        { matches: [pathMatch('Exact', '/a/*')], backendRefs: [backendRef('web')] },
        { matches: [pathMatch('PathPrefix', '/dup')], backendRefs: [backendRef('web', 600000), backendRef('web', 600000)] },
      ]),
    ];
    const report = await reconcile(h(), modelOf(hubInputs(services(), routes(3, extra))));
    expect(report.failures).toEqual([]);
    expect(report.reason).not.toBe('InvalidPlan');
    expect(report.writes).toBeGreaterThan(0);
    expect(patternsOf(h())).toEqual(['/*', '/', '/api', '/api/*', '/dup', '/dup/*', '/shop', '/shop/*'].sort());
  });

  it("values over AFD's limits (a 300-character header match, an 11-condition match, a 65-character route hostname) are left out in resolve; Azure refuses none of what is sent", async () => {
    await programmed(hubInputs(services(), routes()));
    const tooLong = `${'h'.repeat(53)}.example.com`;
    const headers = (n: number, value = 'v') => Array.from({ length: n }, (_, i) => ({ name: `x-h${i}`, value }));
    const hosted = httpRoute('team-d', 'hosted', '2026-02-02T00:00:00Z', [
      { matches: [pathMatch('PathPrefix', '/hosted')], backendRefs: [backendRef('site', 1, 'team-c')] },
    ]);
    const extra = [
      httpRoute('team-a', 'limits', '2026-02-01T00:00:00Z', [
        { matches: [{ ...pathMatch('PathPrefix', '/long'), headers: [{ name: 'x-a', value: 'v'.repeat(300) }] }], backendRefs: [backendRef('web')] },
        { matches: [{ ...pathMatch('PathPrefix', '/crowded'), headers: headers(6), queryParams: headers(5) }], backendRefs: [backendRef('web')] },
        {
          matches: [pathMatch('PathPrefix', '/fits')],
          backendRefs: [backendRef('web')],
          filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'x-b', value: 'b'.repeat(640) }] } }],
        },
      ]),
      { ...hosted, spec: { ...hosted.spec, hostnames: [tooLong] } },
    ];
    const report = await reconcile(h(), modelOf(hubInputs(services(), routes(0, extra))));
    expect(report.failures).toEqual([]);
    expect(report.writes).toBeGreaterThan(0);
    expect(patternsOf(h())).toEqual(['/*', '/', '/api', '/api/*', '/fits', '/fits/*', '/shop', '/shop/*'].sort());
    const hostNames = h()
      .emulator.admin.dumpResources()
      .resources.filter((r) => r.type === 'microsoft.cdn/profiles/customdomains')
      .map((r) => (r.body as { properties?: { hostName?: string } }).properties?.hostName);
    expect(hostNames).not.toContain(tooLong);
  });

  it('a new HTTPRoute past the routes limit waits with zero writes; the programmed routes stay and nothing is refused', async () => {
    await programmed(hubInputs(services(), routes()));
    const before = patternsOf(h());
    const extra = [
      httpRoute('team-d', 'late', '2026-03-01T00:00:00Z', [{ matches: [pathMatch('PathPrefix', '/late')], backendRefs: [backendRef('site', 1, 'team-c')] }]),
    ];
    const report = await reconcile(h(), modelOf(hubInputs(services(), routes(0, extra))), { capacityLimits: { routes: 3 } });
    expect(report.failures).toEqual([]);
    expect(report.reason).not.toBe('CapacityExceeded');
    expect(report.problems.map((p) => [p.code, p.source?.name])).toEqual([['TooManyRoutes', 'late']]);
    expect(writesCounted(h().emulator)).toBe(0);
    expect(patternsOf(h())).toEqual(before);
  });
});
