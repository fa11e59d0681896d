import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Loads the official swagger (OpenAPI 2.0) files and turns their `definitions` into JSON schemas Ajv can compile.
 * The conversion keeps the schema's meaning and changes only what OpenAPI 2.0 spells differently:
 * - `$ref`s become absolute; a `$ref` to a file or definition that is not vendored becomes `{}` (an open object);
 * - a `discriminator` base referenced as a property type also validates the subtype its discriminator value names;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become draft-07 numbers; `x-nullable` admits null.
 */
export const SPEC_BASE_URL = 'https://specs.azure-emulator.local/';

export const SPEC_FILES = [
  'cdn/2024-02-01/afdx.json',
  'cdn/2024-02-01/cdn.json',
  'common-types/resource-management/v4/managedidentity.json',
  'network/2025-05-01/network.json',
  'network/2025-05-01/loadBalancer.json',
  'network/2025-05-01/privateLinkService.json',
] as const;

export interface ConvertedSpecs {
  /** One JSON schema per file, `$id` = its URL, with the converted `definitions`. */
  schemas: Array<{ $id: string; definitions: Record<string, unknown> }>;
  /** Every `$ref` target that is not vendored and is therefore treated as an open object. */
  unresolvedRefs: string[];
  formats: string[];
}

type Json = Record<string, unknown>;

interface SpecFile {
  url: string;
  definitions: Record<string, Json>;
}

const POLYMORPHIC_SUFFIX = '__polymorphic';

export function loadSpecs(specDir: string): ConvertedSpecs {
  const files: SpecFile[] = SPEC_FILES.map((relative) => {
    const document = JSON.parse(readFileSync(join(specDir, relative), 'utf8')) as { definitions?: Record<string, Json> };
    return { url: SPEC_BASE_URL + relative, definitions: document.definitions ?? {} };
  });
  return convertSpecs(files);
}

export function convertSpecs(files: SpecFile[]): ConvertedSpecs {
  const known = new Map(files.map((file) => [file.url, file]));
  const polymorphic = findPolymorphicBases(files, known);
  const unresolved = new Set<string>();
  const formats = new Set<string>();
  const schemas = files.map((file) => {
    const definitions: Record<string, unknown> = {};
    for (const [name, definition] of Object.entries(file.definitions)) {
      const selfUrl = `${file.url}#/definitions/${name}`;
      const context: WalkContext = { fileUrl: file.url, known, polymorphic, unresolved, formats, subtypeOf: selfUrl };
      definitions[name] = convertNode(definition, context, true);
      const base = polymorphic.get(selfUrl);
      if (base !== undefined) definitions[name + POLYMORPHIC_SUFFIX] = polymorphicSchema(selfUrl, base);
    }
    return { $id: file.url, definitions };
  });
  return { schemas, unresolvedRefs: [...unresolved].sort(), formats: [...formats].sort() };
}

interface PolymorphicBase {
  property: string;
  subtypes: Array<{ url: string; value: string }>;
}

interface WalkContext {
  fileUrl: string;
  known: Map<string, SpecFile>;
  polymorphic: Map<string, PolymorphicBase>;
  unresolved: Set<string>;
  formats: Set<string>;
  /** The definition being converted: its own top-level `allOf` must reference the plain base, not the dispatcher. */
  subtypeOf: string;
}

function findPolymorphicBases(files: SpecFile[], known: Map<string, SpecFile>): Map<string, PolymorphicBase> {
  const bases = new Map<string, PolymorphicBase>();
  for (const file of files) {
    for (const [name, definition] of Object.entries(file.definitions)) {
      if (typeof definition.discriminator === 'string') {
        bases.set(`${file.url}#/definitions/${name}`, { property: definition.discriminator, subtypes: [] });
      }
    }
  }
  for (const file of files) {
    for (const [name, definition] of Object.entries(file.definitions)) {
      for (const parent of (definition.allOf as Json[] | undefined) ?? []) {
        if (typeof parent.$ref !== 'string') continue;
        const base = bases.get(absoluteRef(parent.$ref, file.url));
        if (base === undefined || !isResolvable(absoluteRef(parent.$ref, file.url), known)) continue;
        const value = typeof definition['x-ms-discriminator-value'] === 'string' ? definition['x-ms-discriminator-value'] : name;
        base.subtypes.push({ url: `${file.url}#/definitions/${name}`, value });
      }
    }
  }
  return bases;
}

function polymorphicSchema(baseUrl: string, base: PolymorphicBase): Json {
  return {
    allOf: [
      { $ref: baseUrl },
      ...base.subtypes.map((subtype) => ({
        if: { properties: { [base.property]: { const: subtype.value } }, required: [base.property] },
        then: { $ref: subtype.url },
      })),
    ],
  };
}

function absoluteRef(ref: string, fileUrl: string): string {
  return new URL(ref, fileUrl).toString();
}

function isResolvable(url: string, known: Map<string, SpecFile>): boolean {
  const [fileUrl, pointer = ''] = url.split('#');
  const file = known.get(fileUrl as string);
  const match = /^\/definitions\/([^/]+)$/.exec(pointer);
  return file !== undefined && match !== null && file.definitions[match[1] as string] !== undefined;
}

function convertNode(node: unknown, context: WalkContext, isDefinitionRoot = false): unknown {
  if (Array.isArray(node)) return node.map((item) => convertNode(item, context));
  if (node === null || typeof node !== 'object') return node;
  const source = node as Json;
  const result: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('x-ms-') || key === 'discriminator' || key === 'example' || key === 'x-nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      Object.assign(result, convertRef(value, context));
    } else if (key === 'allOf' && isDefinitionRoot) {
      // A subtype's allOf names its base: keep the plain base so the dispatcher does not recurse into itself.
      result.allOf = (value as Json[]).map((entry) => convertParentRef(entry, context));
    } else if (key === 'properties' || key === 'definitions') {
      result[key] = Object.fromEntries(Object.entries(value as Json).map(([name, child]) => [name, convertNode(child, context)]));
    } else if (key === 'format' && typeof value === 'string') {
      context.formats.add(value);
      result.format = value;
    } else {
      result[key] = convertNode(value, context);
    }
  }
  fixExclusiveBounds(source, result);
  if (source['x-nullable'] === true && typeof result.type === 'string') result.type = [result.type, 'null'];
  return result;
}

function convertParentRef(entry: Json, context: WalkContext): unknown {
  if (typeof entry.$ref !== 'string') return convertNode(entry, context);
  const url = absoluteRef(entry.$ref, context.fileUrl);
  if (!isResolvable(url, context.known)) {
    context.unresolved.add(url);
    return {};
  }
  return { $ref: url };
}

function convertRef(ref: string, context: WalkContext): Json {
  const url = absoluteRef(ref, context.fileUrl);
  if (!isResolvable(url, context.known)) {
    context.unresolved.add(url);
    return {};
  }
  const polymorphic = context.polymorphic.get(url);
  if (polymorphic !== undefined && polymorphic.subtypes.length > 0 && url !== context.subtypeOf) {
    return { $ref: url + POLYMORPHIC_SUFFIX };
  }
  return { $ref: url };
}

function fixExclusiveBounds(source: Json, result: Json): void {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof source[exclusive] !== 'boolean') continue;
    delete result[exclusive];
    if (source[exclusive] === true && typeof source[bound] === 'number') {
      result[exclusive] = source[bound];
      delete result[bound];
    }
  }
}
