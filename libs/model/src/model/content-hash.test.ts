import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { modelHash } from './content-hash.js';
import { readHubInputs } from '../resolve/hub-inputs.js';
import type { GlobalGateway } from './model-types.js';
import { normalize } from './normalize.js';
import { resolveGateway } from '../resolve/resolve-gateway.js';

const model = (() => {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'testdata', 'route-precedence.in.yaml'), 'utf8');
  const resolved = resolveGateway(readHubInputs(text)).model;
  if (!resolved) throw new Error('route-precedence must resolve to a model');
  return resolved;
})();

/** Rebuilds every object with its keys in reverse order, as another producer (or a YAML file) might. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

it('hashes a model the same after it went through YAML with its keys reordered, once normalized', () => {
  const reordered = parse(stringify(reverseKeys(model))) as GlobalGateway;
  const again = normalize(reordered);
  expect(again.ok).toBe(true);
  if (again.ok) {
    expect(JSON.stringify(again.model)).toBe(JSON.stringify(model));
    expect(modelHash(again.model)).toBe(modelHash(model));
  }
  expect(modelHash(model)).toMatch(/^[0-9a-f]{64}$/);
});

it('changes when any value changes', () => {
  const changed = structuredClone(model) as { config: { originResponseTimeoutSeconds: number } } & GlobalGateway;
  changed.config.originResponseTimeoutSeconds = 61;
  expect(modelHash(changed)).not.toBe(modelHash(model));
});
