import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { AnnotationResult } from './annotation-error.js';
import { parseGatewayAnnotations } from './gateway-annotations.js';
import { KnownSku, type AnnotatedKind } from './known-values.js';
import { parseHTTPRouteAnnotations, parseListenerTlsOptions, parseServiceImportAnnotations } from './object-annotations.js';
import type { AnnotationMap } from './parse-annotations.js';

/** testdata/<kind>-<case>.in.yaml: `{ kind, annotations }` -> `.out.yaml`: the parse result. */
const testdata = join(import.meta.dirname, '..', 'testdata');
const update = process.env['UPDATE_GOLDEN'] === '1';

const parsers: Record<AnnotatedKind, (a: AnnotationMap) => AnnotationResult<unknown>> = {
  Gateway: (a) => parseGatewayAnnotations(a, { defaultSku: KnownSku.Standard }),
  Listener: parseListenerTlsOptions,
  ServiceImport: parseServiceImportAnnotations,
  HTTPRoute: parseHTTPRouteAnnotations,
};

const cases = readdirSync(testdata)
  .filter((f) => f.endsWith('.in.yaml'))
  .map((f) => f.slice(0, -'.in.yaml'.length));

describe('annotation golden files', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (name) => {
    const input = parse(readFileSync(join(testdata, `${name}.in.yaml`), 'utf8')) as {
      kind: AnnotatedKind;
      annotations: AnnotationMap;
    };
    const actual = stringify(parsers[input.kind](input.annotations), { lineWidth: 0 });
    const outPath = join(testdata, `${name}.out.yaml`);
    if (update) writeFileSync(outPath, actual);
    expect(actual).toBe(readFileSync(outPath, 'utf8'));
  });
});
