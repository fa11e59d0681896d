import type { HTTPRoute, HTTPRouteFilter, HTTPRouteRule, ParentReference } from '@fleet-gateway/api-types';
import { resolveGateway, type HubInputs, type ResolveResult, type SourceRef } from '@fleet-gateway/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refKey } from './afd-refs.js';
import { canonicalJson } from './canonical.js';
import { planFrontDoor } from './plan-front-door.js';
import type { FrontDoorPlan } from './plan-types.js';
import { backendRef, httpRoute, hubInputs, pathMatch, type TeamService } from '../testing/hub-inputs-builder.js';
import { HUB_IDENTITY, reconcile, useHarness } from '../testing/emulator-harness.js';

/**
 * Issue 11's general property: from a valid shared Gateway (several teams, several namespaces), one mutated
 * HTTPRoute (made the newest, so precedence never turns an older route into the loser) or one ServiceImport's
 * annotations never un-accept the Gateway, never make the plan unwritable, never change a planned resource that
 * only other routes derive, and never put a condition or a plan problem on any other object.
 */
const services: readonly TeamService[] = [
  { namespace: 'team-a', name: 'web', clusters: ['member-1', 'member-2'] },
  { namespace: 'team-a', name: 'canary', clusters: ['member-1'] },
  { namespace: 'team-b', name: 'api', clusters: ['member-2'] },
  { namespace: 'team-b', name: 'api-v2', clusters: ['member-1'] },
  { namespace: 'team-c', name: 'site', clusters: ['member-1', 'member-3'] },
];

const baseRoutes: readonly HTTPRoute[] = [
  httpRoute('team-a', 'shop', '2026-01-01T00:00:00Z', [
    { matches: [pathMatch('PathPrefix', '/shop')], backendRefs: [backendRef('web')] },
    { matches: [pathMatch('PathPrefix', '/shop/cart', { headers: [{ name: 'x-canary', value: '1' }] })], backendRefs: [backendRef('canary')] },
  ]),
  httpRoute('team-b', 'api', '2026-01-02T00:00:00Z', [
    { matches: [pathMatch('PathPrefix', '/api')], backendRefs: [backendRef('api', 3), backendRef('api-v2', 1)] },
  ]),
  httpRoute('team-c', 'home', '2026-01-03T00:00:00Z', [
    { matches: [pathMatch('PathPrefix', '/')], backendRefs: [backendRef('site')] },
    {
      matches: [pathMatch('PathPrefix', '/static')],
      filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'cache-control', value: 'max-age=60' }] } }],
      backendRefs: [backendRef('site')],
    },
  ]),
  httpRoute('team-a', 'docs', '2026-01-04T00:00:00Z', [
    {
      matches: [pathMatch('PathPrefix', '/docs')],
      filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/documentation' } } }],
      backendRefs: [backendRef('web')],
    },
  ]),
];

const NEWEST = '2027-01-01T00:00:00Z';
const ANNOTATION = 'networking.fleet.azure.com/';

// Paths a mutated rule may use: its own, case variants of other routes' paths, `*` in every position the CRD
// allows, and other routes' PathPrefix paths as they are (no conditions there, so an older route keeps them).
const ownPaths = ['/m', '/m/x', '/M', '/Shop', '/SHOP/cart', '/API', '/Docs', '/Static', '/m*', '/shop*', '/a/*', '/*'];
const copiedPrefixes = ['/shop', '/api', '/', '/static'];

const matchArb: fc.Arbitrary<NonNullable<HTTPRouteRule['matches']>[number]> = fc.oneof(
  fc
    .record({
      type: fc.constantFrom('Exact' as const, 'PathPrefix' as const),
      value: fc.constantFrom(...ownPaths),
      method: fc.option(fc.constantFrom('GET', 'PATCH'), { nil: undefined }),
      // Over AFD's limits too: more than 10 conditions, a header value over 256 characters.
      headers: fc.array(
        fc.record({
          name: fc.constantFrom('x-a', 'x-b', 'x-c', 'x-d', 'x-e', 'x-f', 'x-g', 'x-h', 'x-i', 'x-j', 'x-k'),
          value: fc.constantFrom('1', '2', 'v'.repeat(257)),
        }),
        { maxLength: 12 },
      ),
    })
    .map(({ type, value, method, headers }) => ({
      path: { type, value },
      ...(method ? { method } : {}),
      // Only on the rule's own paths: a condition on another route's path would take part of its traffic by precedence.
      ...(headers.length > 0 && value.startsWith('/m') ? { headers } : {}),
    })),
  fc.constantFrom(...copiedPrefixes).map((value) => pathMatch('PathPrefix', value)),
);

const filterArb: fc.Arbitrary<HTTPRouteFilter> = fc.constantFrom<HTTPRouteFilter>(
  { type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-team', value: 'm' }], remove: ['x-drop'] } },
  { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } },
  { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/b/' } } },
  { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplaceFullPath', replaceFullPath: '/z' } } },
  { type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } },
  { type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'f' } },
  { type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'x-long', value: 'v'.repeat(641) }] } },
);

function refArb(namespace: string) {
  const own = services.filter((s) => s.namespace === namespace).map((s) => s.name);
  const weight = fc.option(fc.oneof(fc.constant(0), fc.constant(600000), fc.constant(1_000_000), fc.integer({ min: 1, max: 1_000_000 })), { nil: undefined });
  return fc.oneof(
    fc.record({ name: fc.constantFrom(...own, 'ghost'), weight }).map(({ name, weight: w }) => backendRef(name, w)),
    fc.constant(backendRef('api', 1, 'team-b')),
    fc.constant({ kind: 'Service', name: 'web', port: 8080 }),
  );
}

function ruleArb(namespace: string): fc.Arbitrary<HTTPRouteRule> {
  return fc
    .record({
      matches: fc.array(matchArb, { minLength: 1, maxLength: 2 }),
      filters: fc.array(filterArb, { maxLength: 2 }),
      backendRefs: fc.array(refArb(namespace), { maxLength: 3 }),
    })
    .map(({ matches, filters, backendRefs }) => {
      // ReplacePrefixMatch needs a PathPrefix match (the CRD's CEL rule); the rest is as generated.
      const prefixOnly = matches.every((m) => m.path?.type === 'PathPrefix');
      const kept = filters.filter((f) => prefixOnly || f.urlRewrite?.path?.type !== 'ReplacePrefixMatch');
      return { matches, ...(kept.length > 0 ? { filters: kept } : {}), backendRefs };
    });
}

const parentRefArb: fc.Arbitrary<ParentReference[] | undefined> = fc.constantFrom(
  undefined,
  [{ name: 'edge', namespace: 'infra', sectionName: 'nope' }],
  [{ name: 'edge', namespace: 'infra', port: 443 }],
  [{ name: 'edge', namespace: 'infra', sectionName: 'http', port: 80 }],
);

interface RouteMutation {
  readonly kind: 'route';
  readonly namespace: string;
  readonly name: string;
  readonly rules: HTTPRouteRule[];
  readonly hostnames?: string[];
  readonly parentRefs?: ParentReference[];
}

interface ServiceImportMutation {
  readonly kind: 'serviceImport';
  readonly service: TeamService;
  readonly annotations: Record<string, string>;
}

type Mutation = RouteMutation | ServiceImportMutation;

const targets = [
  ...baseRoutes.map((r) => ({ namespace: r.metadata.namespace ?? '', name: r.metadata.name ?? '' })),
  { namespace: 'team-d', name: 'newcomer' },
  { namespace: 'team-a', name: 'extra' },
  { namespace: 'team-d', name: 'v1.2.dotted-name' },
];

const routeMutationArb: fc.Arbitrary<Mutation> = fc.constantFrom(...targets).chain(({ namespace, name }) =>
  fc.record({
    kind: fc.constant('route' as const),
    namespace: fc.constant(namespace),
    name: fc.constant(name),
    rules: fc.array(ruleArb(namespace), { minLength: 1, maxLength: 3 }),
    // Host names AFD cannot take as a custom domain among them: over 64 characters, a single label.
    hostnames: fc.option(fc.constantFrom(['x.example.com'], ['*.example.com'], [`${'h'.repeat(60)}.example.com`], ['intranet', 'y.example.com']), {
      nil: undefined,
    }),
    parentRefs: parentRefArb,
  }),
);

const serviceImportMutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constant('serviceImport' as const),
  service: fc.constantFrom(...services),
  annotations: fc.constantFrom<Record<string, string>>(
    { [`${ANNOTATION}afd-health-probe-path`]: 'healthz' },
    { [`${ANNOTATION}afd-sku`]: 'Premium_AzureFrontDoor' },
    { [`${ANNOTATION}afd-bogus`]: 'x' },
    { [`${ANNOTATION}afd-origin-connectivity`]: 'private-link' },
    { [`${ANNOTATION}afd-health-probe-path`]: '/other' },
  ),
});

const mutationArb = fc.oneof({ weight: 4, arbitrary: routeMutationArb }, { weight: 1, arbitrary: serviceImportMutationArb });

const base = hubInputs(services, baseRoutes);

function apply(mutation: Mutation): HubInputs {
  if (mutation.kind === 'serviceImport') {
    const mutated = services.map((s) => (s === mutation.service ? { ...s, annotations: mutation.annotations } : s));
    return hubInputs(mutated, baseRoutes);
  }
  const route = httpRoute(mutation.namespace, mutation.name, NEWEST, mutation.rules);
  const spec = {
    ...route.spec,
    ...(mutation.hostnames ? { hostnames: mutation.hostnames } : {}),
    ...(mutation.parentRefs ? { parentRefs: mutation.parentRefs } : {}),
  };
  const others = baseRoutes.filter((r) => !(r.metadata.namespace === mutation.namespace && r.metadata.name === mutation.name));
  return hubInputs(services, [...others, { ...route, spec }]);
}

/** The routes (`namespace/name`) the mutation is about: the route itself, or those referencing the ServiceImport. */
function mutatedRoutes(mutation: Mutation): Set<string> {
  if (mutation.kind === 'route') return new Set([`${mutation.namespace}/${mutation.name}`]);
  const { namespace, name } = mutation.service;
  return new Set(
    baseRoutes
      .filter(
        (r) => r.metadata.namespace === namespace && (r.spec.rules ?? []).some((rule) => (rule.backendRefs ?? []).some((b) => b.name === name && !b.namespace)),
      )
      .map((r) => `${r.metadata.namespace}/${r.metadata.name}`),
  );
}

const touches = (sources: readonly SourceRef[], routes: ReadonlySet<string>) =>
  sources.some((s) => s.kind === 'HTTPRoute' && routes.has(`${s.namespace}/${s.name}`));

/** Each planned resource as Azure would receive it (provenance is ours, not Azure's), keyed by its ARM identity. */
function resources(plan: FrontDoorPlan): Map<string, { body: string; provenance: readonly SourceRef[] }> {
  const g = plan.graph;
  const all = [g.profile, g.endpoint, ...g.originGroups, ...g.origins, ...g.ruleSets, ...g.rules, ...g.routes, ...(g.securityPolicy ? [g.securityPolicy] : [])];
  return new Map(all.map(({ provenance, ...spec }) => [refKey(spec.ref), { body: canonicalJson(spec), provenance }]));
}

function resolveAndPlan(inputs: HubInputs): { result: ResolveResult; plan: FrontDoorPlan } {
  const result = resolveGateway(inputs);
  if (!result.model) throw new Error(`the Gateway lost its model: ${canonicalJson(result.verdicts.gateway?.conditions)}`);
  return { result, plan: planFrontDoor(result.model, { hubIdentity: HUB_IDENTITY }) };
}

const baseline = resolveAndPlan(base);
const baseResources = resources(baseline.plan);

function checkIsolation(mutation: Mutation): void {
  const { result, plan } = resolveAndPlan(apply(mutation));
  const mutated = mutatedRoutes(mutation);
  expect(result.verdicts.gateway?.conditions).toEqual(baseline.result.verdicts.gateway?.conditions);
  expect(result.verdicts.gateway?.listeners.map((l) => l.conditions)).toEqual(baseline.result.verdicts.gateway?.listeners.map((l) => l.conditions));
  expect(plan.problems.filter((p) => p.blocksWrites)).toEqual([]);
  // AFD's ranges for what the emulator's schema checks too: origin weight 1..1000, priority 1..5.
  for (const origin of plan.graph.origins) {
    if (origin.keep !== undefined) continue;
    expect(
      origin.priority >= 1 &&
        origin.priority <= 5 &&
        (origin.weight === undefined || (Number.isInteger(origin.weight) && origin.weight >= 1 && origin.weight <= 1000)),
    ).toBe(true);
  }
  // Every plan problem is about the mutated object (the hub turns them into that route's conditions).
  expect(plan.problems.filter((p) => !p.source || !touches([p.source], mutated))).toEqual([]);
  const after = resources(plan);
  for (const [key, { body, provenance }] of baseResources) {
    if (touches(provenance, mutated)) continue;
    expect([key, after.get(key)?.body]).toEqual([key, body]);
  }
  const others = (r: ResolveResult) => r.verdicts.routes.filter((v) => !mutated.has(`${v.namespace}/${v.name}`));
  expect(others(result)).toEqual(others(baseline.result));
  if (mutation.kind === 'route') expectRejectionsNamed(mutation, result, plan);
}

/**
 * A mutated route this Gateway does not program in full carries a condition (or a plan problem) that says so. A rule
 * without backendRefs or whose weights are all 0 answers with an error as the spec asks: that is no rejection.
 */
function expectRejectionsNamed(mutation: RouteMutation, result: ResolveResult, plan: FrontDoorPlan): void {
  const key = `${mutation.namespace}/${mutation.name}`;
  const verdict = result.verdicts.routes.find((v) => `${v.namespace}/${v.name}` === key);
  if (!verdict) return; // its parentRefs name another Gateway: not this Gateway's to judge
  const modelRoute = result.model?.routes.find((r) => `${r.namespace}/${r.name}` === key);
  const routed = new Set(
    result.model?.routing.flatMap((h) => h.paths.flatMap((p) => p.candidates.filter((c) => c.route === key).map((c) => `${c.rule}/${c.match}`))),
  );
  const modelled = modelRoute?.rules.flatMap((rule) => rule.matches.map((_m, i) => `${rule.index}/${i}`)) ?? [];
  const rejected =
    !modelRoute ||
    modelRoute.rules.length < mutation.rules.length ||
    modelled.some((m) => !routed.has(m)) ||
    modelRoute.rules.some((r) => r.withdrawn === 'NoValidBackends' || r.held);
  if (!rejected) return;
  const conditions = verdict.parents.flatMap((p) => p.conditions);
  const named =
    conditions.some((c) => c.status === 'False' || c.type === 'PartiallyInvalid' || /shadowed/.test(c.message)) ||
    plan.problems.some((p) => p.source && touches([p.source], new Set([key])));
  expect([key, named]).toEqual([key, true]);
}

describe('one object in error affects only itself (issue 11 property)', () => {
  it('the base is valid: accepted, writable, no problems, every route accepted', () => {
    expect(baseline.result.verdicts.gateway?.conditions[0]).toMatchObject({ type: 'Accepted', status: 'True', reason: 'Accepted' });
    expect(baseline.plan.problems).toEqual([]);
    expect(baseline.plan.capacity).toEqual([]);
    expect(
      baseline.result.verdicts.routes.flatMap((r) =>
        r.parents.flatMap((p) => p.conditions.filter((c) => c.status !== 'True' && c.type !== 'PartiallyInvalid')),
      ),
    ).toEqual([]);
    expect(baseline.plan.graph.routes.length).toBeGreaterThanOrEqual(5);
  });

  it.each([
    [
      'case 1: Exact /Shop beside an older PathPrefix /shop',
      { kind: 'route', namespace: 'team-d', name: 'newcomer', rules: [{ matches: [pathMatch('Exact', '/Shop')], backendRefs: [] }] },
    ],
    [
      'case 2: PathPrefix /foo* and Exact /a/*',
      {
        kind: 'route',
        namespace: 'team-a',
        name: 'extra',
        rules: [{ matches: [pathMatch('PathPrefix', '/foo*'), pathMatch('Exact', '/a/*')], backendRefs: [backendRef('web')] }],
      },
    ],
    [
      'case 3: duplicate refs 600000 + 600000',
      {
        kind: 'route',
        namespace: 'team-a',
        name: 'extra',
        rules: [{ matches: [pathMatch('PathPrefix', '/m')], backendRefs: [backendRef('web', 600000), backendRef('web', 600000)] }],
      },
    ],
    [
      'the same backend at another weight (a second split of one backend set)',
      { kind: 'route', namespace: 'team-a', name: 'docs', rules: [{ matches: [pathMatch('Exact', '/m')], backendRefs: [backendRef('web', 0)] }] },
    ],
    [
      'a hostname on one route',
      {
        kind: 'route',
        namespace: 'team-a',
        name: 'extra',
        hostnames: ['x.example.com'],
        rules: [{ matches: [pathMatch('PathPrefix', '/m')], backendRefs: [backendRef('web')] }],
      },
    ],
    [
      'an invalid ServiceImport annotation',
      { kind: 'serviceImport', service: services[2] as TeamService, annotations: { [`${ANNOTATION}afd-health-probe-path`]: 'healthz' } },
    ],
  ] satisfies [string, Mutation][])('%s', (_name, mutation) => checkIsolation(mutation));

  it('holds for random mutations of one HTTPRoute or one ServiceImport (seed 11, 400 runs)', () => {
    fc.assert(fc.property(mutationArb, checkIsolation), { seed: 11, numRuns: 400 });
  }, 60_000);
});

describe('every plan the model produces is one AFD accepts (issue 11: the seam that let cases 1-3 through)', () => {
  const h = useHarness();

  it('the emulator accepts every write of base and mutated plans (seed 1111, 20 mutations in a row)', async () => {
    const first = await reconcile(h(), baseline.result.model as NonNullable<ResolveResult['model']>);
    expect(first.failures).toEqual([]);
    expect(first.programmed).toBe(true);
    let writes = 0;
    for (const mutation of fc.sample(mutationArb, { seed: 1111, numRuns: 20 })) {
      const { result } = resolveAndPlan(apply(mutation));
      const report = await reconcile(h(), result.model as NonNullable<ResolveResult['model']>);
      // Neither refused by the plan's own checks nor by ARM: the plan was sent and every request accepted.
      expect([canonicalJson(mutation), report.reason, report.failures]).toEqual([
        canonicalJson(mutation),
        expect.not.stringMatching(/^(InvalidPlan|CapacityExceeded)$/),
        [],
      ]);
      writes += report.writes;
    }
    expect(writes).toBeGreaterThan(20);
  }, 60_000);
});
