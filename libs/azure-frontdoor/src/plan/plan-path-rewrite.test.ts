import type { ModelFilter } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { routeBody } from '../diff/arm-bodies.js';
import { comparableRoute } from '../diff/comparable.js';
import { planFrontDoor } from './plan-front-door.js';
import { buildGateway, type BackendFixture } from '../testing/gateway-builder.js';

const options = { hubIdentity: 'hub-1' };
const web: BackendFixture = { name: 'web', clusters: [{ name: 'member-1' }] };
const canary: BackendFixture = { name: 'canary', clusters: [{ name: 'member-2' }] };
const toPrefix = (value: string): ModelFilter => ({ type: 'URLRewrite', path: { type: 'ReplacePrefixMatch', value } });
const scope = { subscriptionId: '00000000-0000-0000-0000-000000000000', resourceGroup: 'rg' };

describe('plan: ReplacePrefixMatch below a prefix other than /', () => {
  it('one rewrite for every request: the exact route rewrites by rule, the /v1/* route by originPath with no rule set', () => {
    const plan = planFrontDoor(
      buildGateway({ backends: [web], routes: [{ name: 'r', rules: [{ paths: ['/v1'], backends: [{ name: 'web' }], filters: [toPrefix('/v2')] }] }] }),
      options,
    );
    expect(plan.problems).toEqual([]);
    const exact = plan.graph.routes.find((r) => r.patterns.includes('/v1'));
    const subtree = plan.graph.routes.find((r) => r.patterns.includes('/v1/*'));
    expect([exact?.patterns, exact?.originPath, subtree?.patterns, subtree?.originPath, subtree?.ruleSets]).toEqual([['/v1'], undefined, ['/v1/*'], '/v2', []]);
    const exactRules = plan.graph.rules.filter((rule) => exact?.ruleSets.includes(rule.ref.ruleSet));
    expect(exactRules.map((rule) => rule.actions)).toEqual([[{ type: 'rewrite', sourcePattern: '/v1', destination: '/v2', preserveUnmatchedPath: true }]]);
    // The ARM body carries it, and Azure's answer (the same value) compares equal: no write on the next reconcile.
    const body = routeBody(subtree!, scope);
    expect(body.originPath).toBe('/v2');
    expect(comparableRoute({ ...body, originPath: '/v2' })).toEqual(comparableRoute(body));
    expect(comparableRoute({ ...routeBody(exact!, scope), originPath: null as unknown as string })).toEqual(comparableRoute(routeBody(exact!, scope)));
  });

  it('to the root: /a -> / on the exact route by rule, originPath / on /a/*', () => {
    const plan = planFrontDoor(
      buildGateway({ backends: [web], routes: [{ name: 'r', rules: [{ paths: ['/a'], backends: [{ name: 'web' }], filters: [toPrefix('/')] }] }] }),
      options,
    );
    expect(plan.graph.routes.map((r) => [r.patterns, r.originPath])).toEqual(
      expect.arrayContaining([
        [['/a'], undefined],
        [['/a/*'], '/'],
      ]),
    );
    expect(plan.graph.rules.map((rule) => rule.actions)).toEqual([[{ type: 'rewrite', sourcePattern: '/a', destination: '/', preserveUnmatchedPath: true }]]);
  });

  it('candidates that disagree (a header match keeps the path, the fallback rewrites): originPath / and a rewrite in each rule', () => {
    const plan = planFrontDoor(
      buildGateway({
        backends: [web, canary],
        routes: [
          {
            name: 'r',
            rules: [
              {
                matches: [{ path: { type: 'PathPrefix', value: '/app' }, headers: [{ name: 'x-canary', value: 'true' }], queryParams: [] }],
                backends: [{ name: 'canary' }],
              },
              { paths: ['/app'], backends: [{ name: 'web' }], filters: [toPrefix('/v2')] },
            ],
          },
        ],
      }),
      options,
    );
    expect(plan.problems).toEqual([]);
    const subtree = plan.graph.routes.find((r) => r.patterns.includes('/app/*'));
    expect(subtree?.originPath).toBe('/');
    const rules = plan.graph.rules.filter((rule) => subtree?.ruleSets.includes(rule.ref.ruleSet));
    expect(rules.map((rule) => [rule.conditions.length, rule.actions.find((a) => a.type === 'rewrite')])).toEqual([
      [1, { type: 'rewrite', sourcePattern: '/', destination: '/app/', preserveUnmatchedPath: true }],
      [0, { type: 'rewrite', sourcePattern: '/', destination: '/v2/', preserveUnmatchedPath: true }],
    ]);
    // The exact route keeps the plain translation: the canary forwards /app as it is, the fallback rewrites it.
    const exact = plan.graph.routes.find((r) => r.patterns.includes('/app'));
    expect(exact?.originPath).toBeUndefined();
    const exactRules = plan.graph.rules.filter((rule) => exact?.ruleSets.includes(rule.ref.ruleSet));
    expect(exactRules.map((rule) => rule.actions.find((a) => a.type === 'rewrite'))).toEqual([
      undefined,
      { type: 'rewrite', sourcePattern: '/app', destination: '/v2', preserveUnmatchedPath: true },
    ]);
  });

  it('a plan without path rewrites below a prefix is unchanged: one route for the prefix and its subtree, no originPath', () => {
    const plan = planFrontDoor(buildGateway({ backends: [web], routes: [{ name: 'r', rules: [{ paths: ['/v1'], backends: [{ name: 'web' }] }] }] }), options);
    expect(plan.graph.routes.map((r) => [r.patterns, r.originPath])).toEqual([[['/v1', '/v1/*'], undefined]]);
  });
});
