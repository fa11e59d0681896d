import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HTTPRoute, HTTPRouteRule } from '@fleet-gateway/api-types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readHubInputs, type HubInputs } from '../resolve/hub-inputs.js';
import { resolveGateway } from '../resolve/resolve-gateway.js';
import type { ResolveResult } from '../resolve/resolve-result.js';
import { convertFilter } from '../resolve/rule-filters.js';
import { convertMatch } from '../resolve/rule-matches.js';

const testdata = join(import.meta.dirname, '..', '..', 'testdata');
/** One HTTP listener without hostname, ServiceImport store/web with two clusters. */
const base: HubInputs = readHubInputs(readFileSync(join(testdata, 'route-invalid-path-wildcard.in.yaml'), 'utf8'));
const template = (base.httpRoutes ?? [])[0] as HTTPRoute;

const backendRefs = [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'web', port: 8080 }];
const okRule = (path: string): HTTPRouteRule => ({ matches: [{ path: { type: 'PathPrefix', value: path } }], backendRefs });
const route = (name: string, rules: HTTPRouteRule[], hostnames?: string[]): HTTPRoute => ({
  ...template,
  metadata: { ...template.metadata, name },
  spec: { ...template.spec, ...(hostnames ? { hostnames } : {}), rules },
});
const resolveRoutes = (...routes: HTTPRoute[]): ResolveResult => resolveGateway({ ...base, httpRoutes: routes });
const condition = (result: ResolveResult, name: string, type: string) =>
  result.verdicts.routes.find((r) => r.name === name)?.parents[0]?.conditions.find((c) => c.type === type);
const pathKeys = (result: ResolveResult) =>
  result.model?.routing.flatMap((h) => h.paths.map((p) => `${h.hostname} ${p.path.kind} ${p.path.value}`)).sort() ?? [];

const headers = (n: number, value = 'v') => Array.from({ length: n }, (_, i) => ({ name: `x-h${i}`, value }));
const longHost = `${'a'.repeat(52)}.example.com`; // 64 characters
const tooLongHost = `a${longHost}`;

describe('rules-engine limits in resolve', () => {
  it('a match takes 10 method, header and query conditions; 11 drop its rule', () => {
    expect(convertMatch({ method: 'GET', headers: headers(5), queryParams: headers(4) }).ok).toBe(true);
    const crowded = convertMatch({ method: 'GET', headers: headers(5), queryParams: headers(5) });
    expect(crowded).toEqual({ ok: false, problem: 'a match with 11 method, header and query parameter conditions; an AFD rule takes at most 10' });
    // Duplicate header names count once: Gateway API takes the first.
    expect(convertMatch({ headers: [...headers(10), { name: 'X-H0', value: 'w' }] }).ok).toBe(true);
  });

  it('a header match value over 256 characters drops its rule', () => {
    expect(convertMatch({ headers: [{ name: 'x-a', value: 'v'.repeat(256) }] }).ok).toBe(true);
    expect(convertMatch({ headers: [{ name: 'X-A', value: 'v'.repeat(257) }] })).toEqual({
      ok: false,
      problem: 'header match x-a has a value of 257 characters; AFD rule conditions take header values of at most 256',
    });
  });

  it('a header modifier value over 640 characters drops its rule, for requests and responses', () => {
    expect(convertFilter({ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-a', value: 'v'.repeat(640) }] } }).ok).toBe(true);
    expect(convertFilter({ type: 'RequestHeaderModifier', requestHeaderModifier: { add: [{ name: 'x-a', value: 'v'.repeat(641) }] } })).toEqual({
      ok: false,
      problem: 'RequestHeaderModifier of x-a has a value of 641 characters; AFD header actions take values of at most 640',
    });
    expect(convertFilter({ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'x-b', value: 'v'.repeat(700) }] } })).toMatchObject({
      ok: false,
    });
  });

  it('only the rule with the over-long value is dropped; its route is partially invalid, the others untouched', () => {
    const long = {
      ...okRule('/long'),
      matches: [{ path: { type: 'PathPrefix' as const, value: '/long' }, headers: [{ name: 'x-a', value: 'v'.repeat(300) }] }],
    };
    const result = resolveRoutes(route('team-a', [long, okRule('/a')]), route('team-b', [okRule('/b')]));
    expect(result.verdicts.gateway?.conditions.find((c) => c.type === 'Accepted')?.status).toBe('True');
    expect(condition(result, 'team-a', 'Accepted')?.status).toBe('True');
    expect(condition(result, 'team-a', 'PartiallyInvalid')).toMatchObject({ status: 'True', reason: 'UnsupportedValue' });
    expect(condition(result, 'team-a', 'PartiallyInvalid')?.message).toBe(
      'Dropped Rule(s): rule 0: header match x-a has a value of 300 characters; AFD rule conditions take header values of at most 256',
    );
    expect(condition(result, 'team-b', 'PartiallyInvalid')).toBeUndefined();
    expect(pathKeys(result)).toEqual(['* Exact /a', '* Exact /b', '* Subtree /a', '* Subtree /b']);
  });

  it('property: a rule with one value over an AFD limit leaves the model as if the rule were absent', () => {
    const overLimit = fc.constantFrom<(rule: HTTPRouteRule) => HTTPRouteRule>(
      (rule) => ({ ...rule, matches: [{ ...rule.matches?.[0], headers: [{ name: 'x-long', value: 'v'.repeat(257) }] }] }),
      (rule) => ({ ...rule, matches: [{ ...rule.matches?.[0], headers: headers(6), queryParams: headers(5) }] }),
      (rule) => ({ ...rule, filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { add: [{ name: 'x-long', value: 'v'.repeat(641) }] } }] }),
    );
    const paths = fc.uniqueArray(fc.stringMatching(/^\/[a-z]{1,6}$/), { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(paths, fc.nat(), overLimit, (values, pick, spoil) => {
        const rules = values.map(okRule);
        const index = pick % rules.length;
        const spoiled = rules.map((r, i) => (i === index ? spoil(r) : r));
        const withBad = resolveRoutes(route('team-a', spoiled), route('team-b', [okRule('/other')]));
        const without = resolveRoutes(
          route(
            'team-a',
            rules.filter((_, i) => i !== index),
          ),
          route('team-b', [okRule('/other')]),
        );
        expect(pathKeys(withBad)).toEqual(pathKeys(without));
        expect(condition(withBad, 'team-a', 'PartiallyInvalid')?.message).toMatch(new RegExp(`^Dropped Rule\\(s\\): rule ${index}: `));
        expect(condition(withBad, 'team-b', 'Accepted')).toEqual(condition(without, 'team-b', 'Accepted'));
      }),
      { numRuns: 50 },
    );
  });
});

describe('route hostnames and AFD-managed certificates', () => {
  it('a route hostname over 64 characters is not served; the route keeps its other hostnames and says which was left out', () => {
    const result = resolveRoutes(route('team-a', [okRule('/a')], [tooLongHost, longHost]), route('team-b', [okRule('/b')], ['b.example.com']));
    expect([...new Set(result.model?.routing.map((h) => h.hostname))].sort()).toEqual([longHost, 'b.example.com'].sort());
    const accepted = condition(result, 'team-a', 'Accepted');
    expect(accepted?.status).toBe('True');
    expect(accepted?.message).toContain(
      `hostname ${tooLongHost} is not served through listener http: AFD-managed certificates cover host names of at most 64 characters; ${tooLongHost} has 65`,
    );
    expect(condition(result, 'team-b', 'Accepted')?.message).toBe('attached to listeners http');
  });

  it('a route whose every hostname is over 64 characters is not accepted; the other routes are programmed', () => {
    const result = resolveRoutes(route('team-a', [okRule('/a')], [tooLongHost]), route('team-b', [okRule('/b')], ['b.example.com']));
    expect(condition(result, 'team-a', 'Accepted')).toMatchObject({ status: 'False', reason: 'UnsupportedValue' });
    expect(condition(result, 'team-a', 'Accepted')?.message).toContain(
      'no hostname of the route can be served: AFD-managed certificates cover host names of at most 64 characters',
    );
    expect(pathKeys(result)).toEqual(['b.example.com Exact /b', 'b.example.com Subtree /b']);
    expect(result.verdicts.gateway?.conditions.find((c) => c.type === 'Accepted')?.status).toBe('True');
  });

  it('a single-label route hostname or one with a label over 63 characters is not served either', () => {
    const longLabel = `${'l'.repeat(64)}.ex`;
    const result = resolveRoutes(route('team-a', [okRule('/a')], ['intranet', longLabel, 'a.example.com']));
    expect([...new Set(result.model?.routing.map((h) => h.hostname))]).toEqual(['a.example.com']);
    const message = condition(result, 'team-a', 'Accepted')?.message ?? '';
    expect(message).toContain(
      'hostname intranet is not served through listener http: AFD custom domains are fully qualified domain names of at least two labels; intranet has one',
    );
    expect(message).toContain(
      `hostname ${longLabel} is not served through listener http: AFD custom domains have labels of at most 63 characters; ${'l'.repeat(64)} in ${longLabel} has 64`,
    );
  });
});
