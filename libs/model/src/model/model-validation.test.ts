import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHubInputs } from '../resolve/hub-inputs.js';
import type { GlobalGateway } from './model-types.js';
import { normalize } from './normalize.js';
import { resolveGateway } from '../resolve/resolve-gateway.js';

const valid = (() => {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'testdata', 'backend-weights.in.yaml'), 'utf8');
  const { model } = resolveGateway(readHubInputs(text));
  if (!model) throw new Error('backend-weights fixture must resolve to a model');
  return model;
})();

const SPLIT = 'store/cart:8080=3,store/legacy:8080=0,store/web:8080=7';
const ZERO = 'store/cart:8080=0,store/web:8080=0';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? Mutable<U>[] : T[K] extends object ? Mutable<T[K]> : T[K] };

function broken(edit: (m: Mutable<GlobalGateway>) => void): readonly string[] {
  const copy = structuredClone(valid) as Mutable<GlobalGateway>;
  edit(copy);
  const result = normalize(copy as GlobalGateway);
  return result.ok ? [] : result.errors;
}

describe('normalize validation', () => {
  it('accepts the resolved model as it is', () => {
    expect(normalize(valid)).toEqual({ ok: true, model: valid });
  });

  it.each<[string, (m: Mutable<GlobalGateway>) => void, string]>([
    ['gateway name', (m) => (m.gateway.name = ''), 'gateway: namespace and name are required'],
    ['listener port', (m) => (m.listeners[0]!.port = 70000), 'listener http: port 70000 is outside 1..65535'],
    ['duplicate listener', (m) => m.listeners.push(structuredClone(m.listeners[0]!)), 'duplicate listener http'],
    ['duplicate route', (m) => m.routes.push(structuredClone(m.routes[0]!)), 'duplicate route store/web'],
    ['route listener', (m) => m.routes[0]!.listeners.push('nope'), 'route store/web: unknown listener nope'],
    ['route weight', (m) => (m.routes[0]!.rules[0]!.backends[0]!.weight = 1_000_001), 'route store/web rule 0: route weight 1000001 is outside 0..1000000'],
    ['rule backend', (m) => (m.routes[0]!.rules[0]!.backends[0]!.backend = 'x/y:1'), 'route store/web rule 0: unknown backend x/y:1'],
    ['rule split', (m) => (m.routes[0]!.rules[0]!.split = 'x'), 'route store/web rule 0: unknown split x'],
    ['split weight', (m) => (m.splits[1]!.origins[0]!.weight = 0), `split ${SPLIT}: entry store/cart:8080@member-1 (enabled) has weight 0`],
    ['disabled with weight', (m) => (m.splits[0]!.origins[0]!.weight = 5), `split ${ZERO}: entry store/cart:8080@member-1 (disabled) has weight 5`],
    ['split origin', (m) => (m.splits[1]!.origins[0]!.cluster = 'member-9'), `split ${SPLIT}: entry store/cart:8080@member-9 names no origin`],
    ['split backend', (m) => (m.splits[1]!.backends[0]!.backend = 'x/y:1'), `split ${SPLIT}: unknown backend x/y:1`],
    ['duplicate split', (m) => m.splits.push(structuredClone(m.splits[0]!)), `duplicate split ${ZERO}`],
    ['duplicate backend', (m) => m.backends.push(structuredClone(m.backends[0]!)), 'duplicate backend store/cart:8080'],
    ['backend port', (m) => (m.backends[0]!.port = 0), 'backend store/cart:8080: port 0 is outside 1..65535'],
    ['backend identity', (m) => (m.backends[0]!.name = ''), 'backend store/cart:8080: namespace and name are required'],
    ['origin cluster', (m) => (m.backends[0]!.origins[1]!.cluster = 'member-1'), 'backend store/cart:8080: duplicate origin cluster member-1'],
    ['empty cluster', (m) => (m.backends[0]!.origins[0]!.cluster = ''), 'backend store/cart:8080: origin with an empty cluster'],
    [
      'export weight',
      (m) => (m.backends[0]!.origins[0]!.exportWeight = 1001),
      'backend store/cart:8080: origin member-1 export weight 1001 is outside 1..1000',
    ],
    ['origin address', (m) => delete m.backends[0]!.origins[0]!.address, 'backend store/cart:8080: known origin member-1 has no address'],
    ['no origins', (m) => (m.backends[0]!.origins = []), 'backend store/cart:8080: has no origins'],
    ['routing rule', (m) => (m.routing[0]!.paths[0]!.candidates[0]!.rule = 7), 'routing HTTP store.example.com: unknown rule store/web 7'],
  ])('reports %s', (_, edit, message) => {
    expect(broken(edit)).toContain(message);
  });

  it('does not modify the model it is given', () => {
    const copy = structuredClone(valid);
    normalize(copy);
    expect(copy).toEqual(valid);
  });
});
