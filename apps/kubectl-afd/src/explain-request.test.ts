import { readFileSync } from 'node:fs';
import path from 'node:path';
import { planFrontDoor } from '@fleet-gateway/azure-frontdoor';
import { readHubInputs, resolveGateway } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { explainRequest, type ExplainRequest } from './explain-request.js';
import { renderExplanation } from './render-explanation.js';

const inputs = readHubInputs(readFileSync(path.join(import.meta.dirname, '../../../libs/model/testdata/route-precedence.in.yaml'), 'utf8'));
const model = resolveGateway(inputs).model!;
const plan = planFrontDoor(model, { hubIdentity: 'test' });
const explain = (request: Partial<ExplainRequest>) =>
  explainRequest(model, plan, { host: 'store.example.com', path: '/', method: 'GET', headers: [], query: [], ...request }, 'edge-123.z01.azurefd.net');

describe('explainRequest on the precedence fixture', () => {
  it('gives the exact match the exact path, and the deepest prefix a path below it', () => {
    expect(explain({ path: '/a' })).toMatchObject({ listener: { name: 'http' }, pathKey: 'Exact /a', match: { route: 'store/exact', rule: 0 } });
    expect(explain({ path: '/a/b' })).toMatchObject({ pathKey: 'Subtree /a', match: { route: 'store/prefix', rule: 0 } });
    expect(explain({ path: '/b' })).toMatchObject({ pathKey: 'Subtree /', match: { route: 'store/root', rule: 0 } });
  });

  it('takes the header match first when its header holds, and says why it was skipped when not', () => {
    expect(explain({ path: '/a/b', headers: [{ name: 'X-Canary', value: '1' }] }).match?.route).toBe('store/header');
    const without = explain({ path: '/a/b' });
    expect(without.skipped).toEqual(['HTTPRoute store/header rule 0 match 0: header x-canary is absent, not "1"']);
  });

  it('names the AFD route of the domain and pattern, the rules planned for the match, and its origin group', () => {
    const { afd } = explain({ path: '/a/b', headers: [{ name: 'x-canary', value: '1' }] });
    const route = plan.graph.routes.find((r) => r.ref.route === afd?.route)!;
    expect(route.patterns).toContain('/a/*');
    expect(afd?.pattern).toBe('/a/*');
    expect(afd?.domain).toContain('(store.example.com)');
    expect(afd?.rules.length).toBeGreaterThan(0);
    for (const name of afd!.rules) {
      const rule = plan.graph.rules.find((r) => `${r.ref.ruleSet}/${r.ref.rule}` === name)!;
      expect(rule.provenance).toContainEqual(expect.objectContaining({ kind: 'HTTPRoute', name: 'header', section: 'rule/0' }));
      expect(route.ruleSets).toContain(rule.ref.ruleSet);
    }
    expect(plan.graph.originGroups.map((g) => g.ref.originGroup)).toContain(afd?.originGroup);
  });

  it('gives every origin the weight the model programs and its share', () => {
    const { origins } = explain({ path: '/b' });
    const split = model.splits[0]!;
    expect(origins.map((o) => o.weight)).toEqual(split.origins.map((o) => o.weight));
    expect(origins.map((o) => o.percent)).toEqual([25, 75]);
  });

  it('says when no listener serves the host, and routes the endpoint hostname only to host-less listeners', () => {
    expect(explain({ host: 'other.example.com' }).outcome).toBe('no listener of the Gateway serves host other.example.com');
    expect(explain({ host: 'edge-123.z01.azurefd.net' }).listener).toBeUndefined();
    expect(explain({ host: 'STORE.example.com', scheme: 'https' }).outcome).toBe('no listener of the Gateway serves host STORE.example.com over https');
  });

  it('renders aligned lines and the origins as a table', () => {
    const text = renderExplanation(explain({ path: '/b', query: [{ name: 'q', value: '1' }] }));
    expect(text).toMatch(/^request: +GET \(any scheme\):\/\/store\.example\.com\/b\?q=1$/m);
    expect(text).toMatch(/^match: +HTTPRoute store\/root rule 0 match 0$/m);
    expect(text).toMatch(/^CLUSTER +BACKEND +STATE +WEIGHT +SHARE$/m);
    const values = text
      .split('\n')
      .filter((l) => /^[a-zA-Z ]+: /.test(l))
      .map((l) => l.search(/: +\S/) + l.slice(l.indexOf(':') + 1).search(/\S/));
    expect(new Set(values).size).toBe(1);
  });
});
