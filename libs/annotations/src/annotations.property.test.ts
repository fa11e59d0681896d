import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnnotationResult } from './annotation-error.js';
import { annotationContracts, RESERVED_PREFIX } from './contract.js';
import { parseGatewayAnnotations, readDeletionPolicy } from './gateway-annotations.js';
import { KnownSku } from './known-values.js';
import { parseAnnotations, readAnnotation } from './parse-annotations.js';

const knownKeys = annotationContracts.flatMap((c) => [...Object.values(c.keys), ...c.reserved].map((s) => s.key));
const knownValues = annotationContracts.flatMap((c) => Object.values(c.keys).flatMap((s) => [s.example, s.defaultText]));

const key = fc.oneof(
  fc.constantFrom(...knownKeys),
  fc.string({ maxLength: 12 }).map((suffix) => `${RESERVED_PREFIX}${suffix}`),
  fc.constantFrom(...knownKeys).map((k) => k.toUpperCase()),
  fc.constantFrom('networking.fleet.azure.com/weight', 'example.com/x', 'app'),
  fc.string({ maxLength: 40 }),
);
const value = fc.oneof(
  fc.constantFrom(...knownValues),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer({ min: -10, max: 2000 }).map(String),
);
const annotationMap = fc.dictionary(key, value, { maxKeys: 8 });

function checkOutcome(result: AnnotationResult<unknown>, annotations: Record<string, string>): void {
  if (result.ok) {
    expect(result.config).toBeTypeOf('object');
    return;
  }
  expect(result.errors.length).toBeGreaterThan(0);
  for (const error of result.errors) {
    expect(annotations[error.key]).toBe(error.value);
    expect(error.message).toContain(`"${error.key}"`);
    expect(error.message).toContain(JSON.stringify(error.value).slice(0, 100));
    // The expected form, or a hint that stands for it (the nearest key, or where a misplaced key belongs).
    expect(error.message.includes(`expected ${error.expected}`) || /; (did you mean|it belongs) /.test(error.message)).toBe(true);
    expect(error.expected.length).toBeGreaterThan(0);
    expect(error.reason).toMatch(/^[A-Z][A-Za-z]+$/);
  }
}

describe.each(annotationContracts)('random maps on $kind', (contract) => {
  it('never throw, and yield a config or a non-empty error list that names each key and value', () => {
    fc.assert(
      fc.property(annotationMap, (annotations) => {
        checkOutcome(parseAnnotations(contract, annotations), annotations);
      }),
      { seed: 20261130, numRuns: 400 },
    );
  });

  it('fail exactly when a reserved-prefix key is unknown here or its value is invalid; else absent keys get defaults', () => {
    fc.assert(
      fc.property(annotationMap, (annotations) => {
        const specs = Object.values(contract.keys);
        const bad = Object.entries(annotations).filter(([k, v]) => {
          if (!k.toLowerCase().startsWith(RESERVED_PREFIX)) return false;
          const spec = specs.find((s) => s.key === k);
          return !spec || !spec.parser.parse(v).ok;
        });
        const result = parseAnnotations(contract, annotations);
        expect(result.ok).toBe(bad.length === 0);
        if (!result.ok) {
          expect(result.errors.map((e) => e.key).sort()).toEqual(bad.map(([k]) => k).sort());
          return;
        }
        for (const [field, spec] of Object.entries(contract.keys)) {
          const raw = annotations[spec.key];
          const parsed = raw === undefined ? undefined : spec.parser.parse(raw);
          expect(result.config[field]).toEqual(parsed?.ok ? parsed.value : spec.defaultValue);
        }
      }),
      { seed: 11301, numRuns: 400 },
    );
  });

  it('read one key at a time exactly as a whole-object parse would, whatever the other keys hold', () => {
    fc.assert(
      fc.property(annotationMap, (annotations) => {
        for (const [field, spec] of Object.entries(contract.keys)) {
          const raw = annotations[spec.key];
          const read = readAnnotation(contract, field, annotations);
          const parsed = raw === undefined ? undefined : spec.parser.parse(raw);
          if (parsed && !parsed.ok) {
            expect(read).toMatchObject({ ok: false, error: { key: spec.key, value: raw, reason: contract.reason } });
          } else {
            expect(read).toEqual({ ok: true, value: parsed ? parsed.value : spec.defaultValue });
          }
        }
      }),
      { seed: 5150, numRuns: 300 },
    );
  });

  it('do not depend on the order of the keys', () => {
    fc.assert(
      fc.property(annotationMap, (annotations) => {
        const reversed = Object.fromEntries(Object.entries(annotations).reverse());
        expect(parseAnnotations(contract, reversed)).toEqual(parseAnnotations(contract, annotations));
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});

it('Gateway parsing and the deletion policy never throw on random maps', () => {
  fc.assert(
    fc.property(annotationMap, (annotations) => {
      checkOutcome(parseGatewayAnnotations(annotations, { defaultSku: KnownSku.Premium }), annotations);
      const policy = readDeletionPolicy(annotations);
      expect(policy.ok ? ['Delete', 'Orphan'].includes(policy.policy) : policy.error.message.length > 0).toBe(true);
    }),
    { seed: 42, numRuns: 400 },
  );
});
