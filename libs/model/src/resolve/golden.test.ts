import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { modelHash } from '../model/content-hash.js';
import { readHubInputs } from './hub-inputs.js';
import { resolveGateway } from './resolve-gateway.js';
import type { ResolveResult } from './resolve-result.js';
import { verdictCatalog } from '../verdicts/verdict-catalog.js';
import type { VerdictCondition } from '../verdicts/verdict-types.js';

/** testdata/<area>-<case>.in.yaml (HubInputs) -> .out.yaml (model hash, model, verdicts). UPDATE_GOLDEN=1 rewrites. */
const testdata = join(import.meta.dirname, '..', '..', 'testdata');
const update = process.env['UPDATE_GOLDEN'] === '1';
const cases = readdirSync(testdata)
  .filter((f) => f.endsWith('.in.yaml'))
  .map((f) => f.slice(0, -'.in.yaml'.length))
  .sort();

function render(result: ResolveResult): string {
  const out = { modelHash: result.model ? modelHash(result.model) : null, ...result };
  return stringify(out, { lineWidth: 0, aliasDuplicateObjects: false });
}

function conditionKeys(result: ResolveResult): string[] {
  const key = (object: string) => (c: VerdictCondition) => `${object} | ${c.type} | ${c.status} | ${c.reason}`;
  const { gatewayClass, gateway, listenerSets, routes } = result.verdicts;
  return [
    ...(gatewayClass?.conditions ?? []).map(key('GatewayClass')),
    ...(gateway?.conditions ?? []).map(key('Gateway')),
    ...(gateway?.listeners ?? []).flatMap((l) => l.conditions.map(key('Listener'))),
    ...(listenerSets ?? []).flatMap((s) => [...s.conditions.map(key('ListenerSet')), ...s.listeners.flatMap((l) => l.conditions.map(key('Listener')))]),
    ...routes.flatMap((r) => r.parents.flatMap((p) => p.conditions.map(key('HTTPRoute parent')))),
  ];
}

function resolveCase(name: string): ResolveResult {
  return resolveGateway(readHubInputs(readFileSync(join(testdata, `${name}.in.yaml`), 'utf8')));
}

describe('resolve golden files', () => {
  it.each(cases)('%s', (name) => {
    const result = resolveCase(name);
    const outPath = join(testdata, `${name}.out.yaml`);
    if (update) writeFileSync(outPath, render(result));
    expect(render(result)).toBe(readFileSync(outPath, 'utf8'));
  });

  it('cover every row of the verdict table, and produce no condition outside it', () => {
    const catalog = new Set(verdictCatalog.map((c) => `${c.object} | ${c.type} | ${c.status} | ${c.reason}`));
    const seen = new Set(cases.flatMap((name) => conditionKeys(resolveCase(name))));
    expect([...catalog].filter((k) => !seen.has(k))).toEqual([]);
    expect([...seen].filter((k) => !catalog.has(k))).toEqual([]);
  });
});
