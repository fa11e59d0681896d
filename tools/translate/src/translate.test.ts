import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { translate, type TranslateOptions } from './translate.js';

const modelTestdata = join(import.meta.dirname, '../../../libs/model/testdata');
const read = (file: string) => readFileSync(join(modelTestdata, file), 'utf8');
const scope = { subscriptionId: '11111111-2222-3333-4444-555555555555', resourceGroup: 'rg-edge' };
const options: TranslateOptions = { output: 'yaml', show: ['model', 'verdicts', 'plan'], scope, hubName: 'hub-east' };

interface Report {
  model?: unknown;
  verdicts?: unknown;
  plan?: {
    writable: boolean;
    resources: Record<string, { name: string; id: string; [field: string]: unknown }[]>;
    problems: { code: string; message: string; source?: { name: string; section?: string } }[];
  } | null;
}

function translated(yaml: string, extra: Partial<TranslateOptions> = {}): Report {
  const result = translate(yaml, { ...options, ...extra });
  expect(result.exitCode, result.output).toBe(0);
  return parse(result.output) as Report;
}

/** route-precedence with its listener's hostname removed: the routes land on the endpoint's default domain. */
function defaultDomainPrecedence(): string {
  const inputs = parse(read('route-precedence.in.yaml')) as { gateway: { spec: { listeners: { hostname?: string }[] } } };
  for (const listener of inputs.gateway.spec.listeners) delete listener.hostname;
  return stringify(inputs);
}

describe('translate', () => {
  const cases = readdirSync(modelTestdata)
    .filter((f) => f.endsWith('.in.yaml'))
    .map((f) => f.slice(0, -'.in.yaml'.length));

  it.each(cases)('%s: the same verdicts and model as libs/model golden output, and a plan exactly when a model results', (name) => {
    const expected = parse(read(`${name}.out.yaml`)) as { modelHash: string | null; model?: unknown; verdicts: unknown };
    const report = translated(read(`${name}.in.yaml`));
    expect(report.verdicts).toEqual(expected.verdicts);
    expect(report.model ?? undefined).toEqual(expected.model);
    expect(report.plan === null).toBe(expected.modelHash === null);
  });

  it('plans AFD routes, patterns, rules and weights for routes on the default domain', () => {
    const plan = translated(defaultDomainPrecedence()).plan;
    if (!plan) throw new Error('expected a plan');
    expect(plan.writable).toBe(true);
    expect(plan.problems).toEqual([]);
    const routes = plan.resources['route'] ?? [];
    expect(routes.map((r) => [r.name.replace(/[0-9a-f]{12}$/, '<hash>'), r['patterns']])).toEqual([
      ['rt-exact-0-<hash>', ['/a']],
      ['rt-prefix-0-<hash>', ['/a/*']],
      ['rt-root-0-<hash>', ['/', '/*']],
    ]);
    // The header match of "header" becomes a rule in the rule set of the /a/* route, overriding to the same group.
    const [ruleSet] = plan.resources['ruleSet'] ?? [];
    expect(routes[1]?.['ruleSets']).toEqual([ruleSet?.name]);
    expect(plan.resources['rule']?.map((r) => r['conditions'])).toEqual([[{ type: 'header', name: 'x-canary', value: '1' }]]);
    // Export weights 1 and 3 -> AFD origin weights by largest remainder, the largest share at 1000.
    expect(plan.resources['origin']?.map((o) => [o['cluster'], o['weight']])).toEqual([
      ['member-1', 333],
      ['member-2', 1000],
    ]);
    const [profile] = plan.resources['profile'] ?? [];
    expect(profile?.id).toBe(`/subscriptions/${scope.subscriptionId}/resourceGroups/rg-edge/providers/Microsoft.Cdn/profiles/${profile?.name}`);
    expect(profile?.['tags']).toMatchObject({ 'fleet-networking-hub-identity': `subscription/${scope.subscriptionId}/cluster/hub-east` });
    expect(routes.every((r) => r.id.includes(`/afdEndpoints/${plan.resources['endpoint']?.[0]?.name}/routes/${r.name}`))).toBe(true);
  });

  it('serves a listener hostname on a custom domain: its routes name the domain and do not link the default domain', () => {
    const plan = translated(read('route-precedence.in.yaml')).plan;
    expect(plan?.problems).toEqual([]);
    const [domain] = plan?.resources['customDomain'] ?? [];
    expect(domain).toMatchObject({ hostName: 'store.example.com', minimumTlsVersion: 'TLS12' });
    expect(domain?.id).toMatch(/\/customDomains\/cd-store-example-com-[0-9a-f]{12}$/);
    const routes = (plan?.resources['route'] ?? []) as { customDomains?: string[] }[];
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route.customDomains).toEqual([(domain as { name?: string }).name]);
  });

  it('prints the chosen sections in a fixed order, as YAML or as the same JSON', () => {
    const yaml = translate(defaultDomainPrecedence(), { ...options, show: ['plan', 'verdicts'] });
    const json = translate(defaultDomainPrecedence(), { ...options, output: 'json', show: ['plan', 'verdicts'] });
    expect(Object.keys(parse(yaml.output) as object)).toEqual(['verdicts', 'plan']);
    expect(JSON.parse(json.output)).toEqual(parse(yaml.output));
    expect(translate(defaultDomainPrecedence(), { ...options, show: ['plan', 'verdicts'] }).output).toBe(yaml.output);
  });

  it('answers bad input with exit code 2 and one line naming what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['gateway: [', /^input is not valid YAML: .*line 1, column/],
      [
        read('gateway-basic-public.in.yaml').replace('defaultSku: Standard_AzureFrontDoor', 'defaultSku: 5'),
        /controller\.defaultSku is 5; expected "Standard_AzureFrontDoor"/,
      ],
      [read('gateway-basic-public.in.yaml').replace('kind: Gateway\n', 'kind: Gatewey\n'), /gateway\.kind is "Gatewey"; expected "Gateway"/],
      [
        read('route-precedence.in.yaml').replace('hostname: store.example.com', 'hostname: 5'),
        /a field inside one of the objects has the wrong type \(.+\); expected objects valid against/,
      ],
    ];
    for (const [input, message] of cases) {
      const result = translate(input, options);
      expect(result.exitCode).toBe(2);
      expect(result.output).toMatch(message);
      expect(result.output).not.toContain('\n');
    }
  });
});
