import { MAX_CONDITIONS_PER_RULE, type CorsPolicy, type ModelFilter } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { ruleBody } from '../diff/arm-bodies.js';
import { buildGateway } from '../testing/gateway-builder.js';
import { HUB_IDENTITY } from '../testing/emulator-harness.js';
import { corsRules } from './cors-rules.js';
import { planFrontDoor } from './plan-front-door.js';
import type { RuleSpec } from './spec-types.js';

const listed: CorsPolicy = {
  exactOrigins: ['https://a.example.com', 'https://b.example.com'],
  wildcardOrigins: ['^https://[^:/]+\\.example\\.org$'],
  anyOrigin: false,
  allowCredentials: false,
  allowMethods: 'GET, PUT',
  exposeHeaders: 'x-id',
  maxAge: 5,
};

const headersSet = (rule: { actions: readonly { type: string; name?: string; value?: string }[] }): string[] =>
  rule.actions.map((a) => `${a.name}: ${a.value}`);

describe('CORS rules', () => {
  it('one rule echoes each listed origin; wildcards get *; exposed and preflight headers once per kind of origin condition; Vary on every response', () => {
    const rules = corsRules(listed);
    expect(
      rules.map((r) => [
        r.conditions.map((c) =>
          c.type === 'headerMatch' ? `${c.name} ${c.operator} ${c.values.join('|')}` : `${c.type} ${c.type === 'method' ? c.method : ''}`,
        ),
        headersSet(r),
      ]),
    ).toEqual([
      [[], ['Vary: , Origin']],
      [['Origin RegEx ^https://[^:/]+\\.example\\.org$'], ['Access-Control-Allow-Origin: *']],
      [['Origin Equal https://a.example.com'], ['Access-Control-Allow-Origin: https://a.example.com']],
      [['Origin Equal https://b.example.com'], ['Access-Control-Allow-Origin: https://b.example.com']],
      [['Origin Equal https://a.example.com|https://b.example.com'], ['Access-Control-Expose-Headers: x-id']],
      [['Origin RegEx ^https://[^:/]+\\.example\\.org$'], ['Access-Control-Expose-Headers: x-id']],
      [
        ['Origin Equal https://a.example.com|https://b.example.com', 'method OPTIONS', 'Access-Control-Request-Method Any '],
        ['Access-Control-Allow-Methods: GET, PUT', 'Access-Control-Max-Age: 5'],
      ],
      [
        ['Origin RegEx ^https://[^:/]+\\.example\\.org$', 'method OPTIONS', 'Access-Control-Request-Method Any '],
        ['Access-Control-Allow-Methods: GET, PUT', 'Access-Control-Max-Age: 5'],
      ],
    ]);
  });

  it('"*": any Origin gets *, no Vary (nothing varies), credentials header when asked', () => {
    const rules = corsRules({ exactOrigins: [], wildcardOrigins: [], anyOrigin: true, allowCredentials: true, maxAge: 10 });
    expect(rules.map(headersSet)).toEqual([['Access-Control-Allow-Origin: *'], ['Access-Control-Allow-Credentials: true'], ['Access-Control-Max-Age: 10']]);
  });

  it('in a rule set: a conditional match keeps its conditions on its CORS rules, which come before its Stop rule and continue', () => {
    const cors: ModelFilter = { type: 'CORS', ...listed };
    const model = buildGateway({
      backends: [
        { name: 'web', clusters: [{ name: 'member-1' }] },
        { name: 'canary', clusters: [{ name: 'member-2' }] },
      ],
      routes: [
        {
          name: 'web',
          rules: [
            {
              matches: [{ path: { type: 'PathPrefix', value: '/app' }, headers: [{ name: 'x-canary', value: 'true' }], queryParams: [] }],
              backends: [{ name: 'canary' }],
              filters: [cors],
            },
            { paths: ['/app'], backends: [{ name: 'web' }], filters: [cors] },
          ],
        },
      ],
    });
    const { graph } = planFrontDoor(model, { hubIdentity: HUB_IDENTITY });
    const rules = [...graph.rules].sort((a, b) => a.order - b.order);
    const perCandidate = corsRules(listed).length;
    const canary = rules.slice(0, perCandidate + 1);
    const rest = rules.slice(perCandidate + 1);
    expect(canary.map((r) => [r.conditions[0], r.matchProcessingBehavior])).toEqual(
      canary.map((_, i) => [{ type: 'header', name: 'x-canary', value: 'true' }, i === perCandidate ? 'Stop' : 'Continue']),
    );
    expect(canary.at(-1)?.actions.map((a) => a.type)).toEqual(['originGroupOverride']);
    expect(rest.map((r) => r.conditions.some((c) => c.type === 'header'))).toEqual(rest.map(() => false));
    expect(rest.map((r) => r.matchProcessingBehavior)).toEqual(rest.map(() => 'Continue'));
    expect(Math.max(...rules.map((r) => r.conditions.length))).toBeLessThanOrEqual(MAX_CONDITIONS_PER_RULE);
  });

  it('CORS filters whose rules outgrow a rule set (100 rules) hold their path only, named; the other paths are planned', () => {
    const manyPolicy: CorsPolicy = { ...listed, exactOrigins: Array.from({ length: 64 }, (_, i) => `https://app-${i}.example.com`) };
    const manyOrigins: ModelFilter = { type: 'CORS', ...manyPolicy };
    const canary = (path: string) => ({
      matches: [{ path: { type: 'PathPrefix' as const, value: path }, headers: [{ name: 'x-canary', value: 'true' }], queryParams: [] }],
      backends: [{ name: 'web' }],
      filters: [manyOrigins],
    });
    const model = buildGateway({
      backends: [{ name: 'web', clusters: [{ name: 'member-1' }] }],
      routes: [
        { name: 'crowded', rules: [canary('/shop'), { paths: ['/shop'], backends: [{ name: 'web' }], filters: [manyOrigins] }] },
        { name: 'calm', rules: [canary('/calm'), { paths: ['/calm'], backends: [{ name: 'web' }] }] },
      ],
    });
    const plan = planFrontDoor(model, { hubIdentity: HUB_IDENTITY });
    expect(plan.problems.map((p) => [p.code, p.source?.name, p.message.includes('AFD allows 100')])).toEqual([['TooManyRules', 'crowded', true]]);
    expect(plan.graph.routes.flatMap((r) => r.patterns)).toEqual(['/calm', '/calm/*']);
    // /calm: its canary's CORS rules and its own rule.
    expect(plan.graph.rules.length).toBe(corsRules(manyPolicy).length + 1);
  });

  it('ARM bodies: an Any header condition has no match values; 307 and 308 are TemporaryRedirect and PermanentRedirect', () => {
    const scope = { subscriptionId: '00000000-0000-0000-0000-000000000000', resourceGroup: 'rg' };
    const rule = (spec: Pick<RuleSpec, 'conditions' | 'actions'>): RuleSpec => ({
      ref: { kind: 'rule', profile: 'p', ruleSet: 's', rule: 'r' },
      order: 1,
      matchProcessingBehavior: 'Continue',
      provenance: [],
      ...spec,
    });
    const any = ruleBody(
      rule({ conditions: [{ type: 'headerMatch', name: 'Access-Control-Request-Method', operator: 'Any', values: [] }], actions: [] }),
      scope,
    );
    expect((any.conditions?.[0] as { parameters?: unknown } | undefined)?.parameters).toEqual({
      typeName: 'DeliveryRuleRequestHeaderConditionParameters',
      selector: 'Access-Control-Request-Method',
      operator: 'Any',
      negateCondition: false,
      transforms: [],
    });
    const redirectType = (statusCode: 307 | 308): unknown =>
      (ruleBody(rule({ conditions: [], actions: [{ type: 'redirect', statusCode }] }), scope).actions?.[0] as { parameters: { redirectType?: string } })
        .parameters.redirectType;
    expect([redirectType(307), redirectType(308)]).toEqual(['TemporaryRedirect', 'PermanentRedirect']);
  });
});
