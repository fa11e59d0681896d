import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { modelHash } from '../model/content-hash.js';
import { readHubInputs, writeHubInputs, type HubInputs } from './hub-inputs.js';
import { normalize } from '../model/normalize.js';
import { resolveGateway } from './resolve-gateway.js';

const testdata = join(import.meta.dirname, '..', '..', 'testdata');
const fixtures = readdirSync(testdata)
  .filter((f) => f.endsWith('.in.yaml'))
  .sort()
  .map((f) => ({ name: f, inputs: readHubInputs(readFileSync(join(testdata, f), 'utf8')) }));

function shuffled<T>(items: readonly T[] | undefined, keys: readonly number[]): T[] | undefined {
  if (!items) return undefined;
  return items
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)] ?? 0, i }))
    .sort((a, b) => a.key - b.key || b.i - a.i)
    .map((x) => x.item);
}

/** The same objects in another order: every object list, and each ServiceImport's cluster list. */
function permute(inputs: HubInputs, keys: readonly number[]): HubInputs {
  const serviceImports = shuffled(inputs.serviceImports, keys)?.map((si) =>
    si.status ? { ...si, status: { ...si.status, clusters: shuffled(si.status.clusters, [...keys].reverse()) } } : si,
  );
  return {
    ...inputs,
    otherGateways: shuffled(inputs.otherGateways, keys),
    httpRoutes: shuffled(inputs.httpRoutes, keys),
    referenceGrants: shuffled(inputs.referenceGrants, keys),
    ...(serviceImports ? { serviceImports } : {}),
    internalServiceExports: shuffled(inputs.internalServiceExports, [...keys].reverse()),
    namespaces: shuffled(inputs.namespaces, keys),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const hashOf = (inputs: HubInputs) => {
  const { model } = resolveGateway(inputs);
  return model ? modelHash(model) : null;
};
const render = (inputs: HubInputs) => stringify(resolveGateway(inputs), { lineWidth: 0 });

describe('resolve is deterministic and pure', () => {
  it.each(fixtures)('$name: any input order gives byte-identical output and the same hash', ({ inputs }) => {
    const expected = render(inputs);
    const hash = hashOf(inputs);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 12 }), (keys) => {
        const permuted = permute(inputs, keys);
        expect(render(permuted)).toBe(expected);
        expect(hashOf(permuted)).toBe(hash);
      }),
      { seed: 2026, numRuns: 15 },
    );
  });

  it.each(fixtures)('$name: never modifies its inputs, and normalize is idempotent', ({ inputs }) => {
    const frozen = deepFreeze(structuredClone(inputs));
    const result = resolveGateway(frozen);
    expect(frozen).toEqual(inputs);
    if (result.model) expect(normalize(result.model)).toEqual({ ok: true, model: result.model });
  });

  it.each(fixtures)('$name: HubInputs round-trip through YAML', ({ inputs }) => {
    expect(readHubInputs(writeHubInputs(inputs))).toEqual(inputs);
  });
});
