import type { AFDOrigin } from '@azure/arm-cdn';
import { describe, expect, it } from 'vitest';
import { diffFrontDoor } from './diff.js';
import type { ObservedGraph } from '../observe/observe.js';
import type { Operation } from './operations.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway, type BackendFixture, type GatewayFixture, type RuleFixture } from '../testing/gateway-builder.js';
import { observedFromGraph } from '../testing/observed-from-graph.js';

const scope = { subscriptionId: '00000000-0000-4000-8000-000000000001', resourceGroup: 'rg' };
const web = (member2: { unknown?: boolean } = {}): BackendFixture => ({
  name: 'web',
  hostHeader: 'web.internal',
  clusters: [
    { name: 'member-1', weight: 3, address: '10.1.0.4' },
    member2.unknown ? { name: 'member-2', unknown: true } : { name: 'member-2', weight: 1, address: '10.2.0.4' },
  ],
});
const api: BackendFixture = { name: 'api', clusters: [{ name: 'member-1', address: '10.1.0.9' }] };
const other: BackendFixture = { name: 'other', clusters: [{ name: 'member-3', address: '10.3.0.9' }] };

const gateway = (backends: BackendFixture[], rules: Record<string, RuleFixture['backends']>): GatewayFixture => ({
  backends,
  routes: Object.entries(rules).map(([name, ruleBackends]) => ({ name, rules: [{ paths: [`/${name}`], backends: ruleBackends }] })),
});
const plan = (f: GatewayFixture) => planFrontDoor(buildGateway(f), { hubIdentity: 'hub' }).graph;
const observe = (f: GatewayFixture): ObservedGraph => observedFromGraph(plan(f), scope);
const short = (name: string) => name.slice(0, name.lastIndexOf('-'));
const originOps = (ops: readonly Operation[]) =>
  ops.filter((o) => o.ref.kind === 'origin').map((o) => (o.ref.kind === 'origin' ? [o.action, short(o.ref.originGroup), short(o.ref.origin)] : []));
const bodyOf = (ops: readonly Operation[], cluster: string, group?: string) =>
  ops.find((o) => o.ref.kind === 'origin' && o.action === 'create' && o.ref.origin.startsWith(`o-${cluster}-`) && (!group || o.ref.originGroup === group))
    ?.body as AFDOrigin | undefined;

describe('carrying unknown origins into a new origin group (pure)', () => {
  it('copies the last programmed origin into the new group, its weight rescaled through its known sibling', () => {
    const before = observe(gateway([web(), api], { shop: [{ name: 'web' }] }));
    const stale = plan(gateway([web({ unknown: true }), api], { shop: [{ name: 'web' }, { name: 'api', weight: 3 }] }));
    const diff = diffFrontDoor(stale, before, scope);
    const programmed = before.origins.find((o) => o.name.startsWith('o-member-2-'))?.arm as AFDOrigin;
    expect(programmed.weight).toBe(333);
    const carried = bodyOf(diff.operations, 'member-2');
    // web member-1 went from 1000 to 333 (web now has a quarter of the route): member-2 keeps its ratio to it.
    expect(stale.origins.find((o) => o.ref.origin.startsWith('o-member-1-') && o.backend === 'store/web:8080')).toMatchObject({ weight: 333 });
    expect(carried).toMatchObject({
      hostName: '10.2.0.4',
      originHostHeader: 'web.internal',
      httpPort: 8080,
      httpsPort: 8080,
      priority: 1,
      enabledState: 'Enabled',
      weight: 111,
    });
    expect(diff.notProgrammed).toEqual([]);
    expect(diff.operations.find((o) => o.body === carried)?.reason).toMatch(
      /is carried from origin group og-web-\w+ as last programmed \(weight 333 -> 111, keeping its ratio to member-1 of store\/web:8080\): member data of cluster member-2/,
    );
    expect(originOps(diff.operations).filter(([action]) => action === 'delete')).toEqual([]);
    expect(diff.operations.filter((o) => o.action === 'delete').map((o) => o.ref.kind)).toEqual(['originGroup']);
  });

  it('keeps the observed weight when no known origin of the backend relates it to the new split', () => {
    const allStale: BackendFixture = {
      name: 'web',
      clusters: [
        { name: 'member-1', unknown: true },
        { name: 'member-2', unknown: true },
      ],
    };
    const before = observe(gateway([web(), api], { shop: [{ name: 'web' }] }));
    const diff = diffFrontDoor(plan(gateway([allStale, api], { shop: [{ name: 'web' }, { name: 'api' }] })), before, scope);
    const created = diff.operations.filter((o) => o.action === 'create' && o.ref.kind === 'origin');
    expect(created.map((o) => [(o.body as AFDOrigin).weight, o.reason.replace(/^.* as last programmed /, '').replace(/: member data.*$/, '')])).toEqual([
      [1000, expect.stringMatching(/ does not exist$/)],
      [1000, '(weight 1000 as it was; no known origin of store/web:8080 relates it to the new split)'],
      [333, '(weight 333 as it was; no known origin of store/web:8080 relates it to the new split)'],
    ]);
  });

  it('the same unknown cluster in two new groups is carried into each, scaled to each split', () => {
    const before = observe(gateway([web(), api, other], { shop: [{ name: 'web' }], cart: [{ name: 'web' }] }));
    const after = plan(
      gateway([web({ unknown: true }), api, other], { shop: [{ name: 'web' }, { name: 'api', weight: 3 }], cart: [{ name: 'web' }, { name: 'other' }] }),
    );
    const diff = diffFrontDoor(after, before, scope);
    const groups = after.originGroups.map((g) => g.ref.originGroup);
    expect(groups).toHaveLength(2);
    expect(groups.map((g) => bodyOf(diff.operations, 'member-2', g)?.weight).sort()).toEqual([111, 333]);
  });

  it('carries Private Link settings as programmed', () => {
    const pl = (member2: { unknown?: boolean } = {}): BackendFixture => ({
      name: 'pl',
      clusters: [
        { name: 'member-1', privateLink: { state: 'Approved' } },
        member2.unknown ? { name: 'member-2', unknown: true } : { name: 'member-2', privateLink: { state: 'Approved' } },
      ],
    });
    const pl2: BackendFixture = { name: 'pl2', clusters: [{ name: 'member-3', privateLink: { state: 'Approved' } }] };
    const before = observe(gateway([pl(), pl2], { shop: [{ name: 'pl' }] }));
    const diff = diffFrontDoor(plan(gateway([pl({ unknown: true }), pl2], { shop: [{ name: 'pl' }, { name: 'pl2' }] })), before, scope);
    expect(bodyOf(diff.operations, 'member-2')?.sharedPrivateLinkResource).toEqual({
      privateLink: {
        id: '/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/mc-member-2/providers/Microsoft.Network/privateLinkServices/pls-pl',
      },
      privateLinkLocation: 'eastus2',
      requestMessage: 'fleet:member-2:pl:request',
    });
  });

  it('a backend no longer in the rule is not carried, and nothing never observed is created', () => {
    const apiTwo: BackendFixture = {
      name: 'api',
      clusters: [
        { name: 'member-1', address: '10.1.0.9' },
        { name: 'member-4', address: '10.4.0.9' },
      ],
    };
    const before = observe(gateway([web(), apiTwo], { shop: [{ name: 'web' }, { name: 'api' }] }));
    const apiStale: BackendFixture = {
      name: 'api',
      clusters: [
        { name: 'member-1', unknown: true },
        { name: 'member-4', address: '10.4.0.9' },
      ],
    };
    const newcomer: BackendFixture = { ...web(), clusters: [...web().clusters, { name: 'member-5', unknown: true }] };
    const diff = diffFrontDoor(plan(gateway([newcomer, apiStale], { shop: [{ name: 'web' }] })), before, scope);
    expect(originOps(diff.operations).filter(([action]) => action !== 'delete')).toEqual([
      ['create', 'og-web', 'o-member-1'],
      ['create', 'og-web', 'o-member-2'],
    ]);
    expect(diff.notProgrammed.map((n) => n.reason)).toEqual([expect.stringContaining('member data of cluster member-5')]);
  });

  it('a disabled origin is carried disabled; a rule that lost every origin goes to the sink and nothing is carried for it', () => {
    const before = observe(gateway([web(), api], { shop: [{ name: 'web' }] }));
    const disabled = {
      ...before,
      origins: before.origins.map((o) => (o.name.startsWith('o-member-2-') ? { ...o, arm: { ...o.arm, enabledState: 'Disabled' } } : o)),
    };
    const moved = plan(gateway([web({ unknown: true }), api], { shop: [{ name: 'web' }, { name: 'api' }] }));
    expect(bodyOf(diffFrontDoor(moved, disabled, scope).operations, 'member-2')).toMatchObject({ enabledState: 'Disabled', weight: 333 });
    const zero = plan(
      gateway([web({ unknown: true }), api], {
        shop: [{ name: 'web' }],
        cart: [
          { name: 'web', weight: 0 },
          { name: 'api', weight: 0 },
        ],
      }),
    );
    const created = diffFrontDoor(zero, before, scope).operations.filter((op) => op.action === 'create');
    expect(created.map((op) => op.ref.kind).sort()).toEqual(['origin', 'originGroup', 'route']);
    expect(created.find((op) => op.ref.kind === 'origin')?.body).toMatchObject({
      hostName: expect.stringMatching(/\.withdrawn\.invalid$/),
      enabledState: 'Enabled',
    });
  });
});
