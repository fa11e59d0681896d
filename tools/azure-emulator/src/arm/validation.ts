import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ArmError } from './errors.js';
import { loadSpecs, SPEC_BASE_URL, SPEC_FILES, type ConvertedSpecs } from './spec-documents.js';

const addFormats = addFormatsModule.default;

/** A definition in a vendored spec file, e.g. `cdn/2024-02-01/afdx.json#AFDOrigin`. */
export type DefinitionRef = `${string}.json#${string}`;

export interface ValidateOptions {
  /** Fill in the schema's `default`s (for PUT; never for PATCH, where absence means "unchanged"). */
  applyDefaults: boolean;
  /** The ARM error code the resource provider uses for a body it rejects. */
  errorCode: string;
}

/** Validates request bodies against the official schemas; compiled validators are cached per definition. */
export class SchemaValidator {
  private readonly withDefaults: Ajv;
  private readonly withoutDefaults: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly specs: ConvertedSpecs;
  readonly unresolvedRefs: readonly string[];

  constructor(specDir: string) {
    const specs = loadSpecs(specDir);
    this.specs = specs;
    this.unresolvedRefs = specs.unresolvedRefs;
    this.withDefaults = createAjv(specs, true);
    this.withoutDefaults = createAjv(specs, false);
  }

  /** Validates `body` in place (defaults are written into it when asked) or throws a 400 naming the field. */
  validate(definition: DefinitionRef, body: unknown, options: ValidateOptions): void {
    // A definition in a file that is not vendored is an open object, like an unresolved $ref.
    if (!isVendored(definition)) return;
    const validator = this.validatorFor(definition, options.applyDefaults);
    if (validator(body)) return;
    throw new ArmError(400, options.errorCode, describeFirstError(validator.errors ?? [], body));
  }

  /** The top-level member names a definition declares (through allOf): the members a PATCH may change. */
  memberNames(definition: DefinitionRef): string[] {
    const names = new Set<string>();
    const visit = (url: string): void => {
      const [fileUrl, pointer = ''] = url.split('#');
      const schema = this.specs.schemas.find((candidate) => candidate.$id === fileUrl);
      const node = schema?.definitions[pointer.replace('/definitions/', '')] as
        { properties?: Record<string, unknown>; allOf?: Array<{ $ref?: string }> } | undefined;
      for (const name of Object.keys(node?.properties ?? {})) names.add(name);
      for (const parent of node?.allOf ?? []) if (parent.$ref !== undefined) visit(parent.$ref);
    };
    const [file, name] = definition.split('#') as [string, string];
    visit(`${SPEC_BASE_URL}${file}#/definitions/${name}`);
    return [...names];
  }

  private validatorFor(definition: DefinitionRef, applyDefaults: boolean): ValidateFunction {
    const cacheKey = `${applyDefaults}:${definition}`;
    let validator = this.compiled.get(cacheKey);
    if (validator === undefined) {
      const [file, name] = definition.split('#') as [string, string];
      const ajv = applyDefaults ? this.withDefaults : this.withoutDefaults;
      validator = ajv.compile({ $ref: `${SPEC_BASE_URL}${file}#/definitions/${name}` });
      this.compiled.set(cacheKey, validator);
    }
    return validator;
  }
}

function isVendored(definition: DefinitionRef): boolean {
  return (SPEC_FILES as readonly string[]).includes(definition.split('#')[0] as string);
}

function createAjv(specs: ConvertedSpecs, useDefaults: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, useDefaults, validateSchema: false });
  addFormats(ajv);
  for (const format of specs.formats) {
    if (!ajv.formats[format]) ajv.addFormat(format, true);
  }
  for (const schema of specs.schemas) ajv.addSchema(schema);
  return ajv;
}

/** A JSON pointer such as `/properties/origins/0/weight` as a readable path: `properties.origins[0].weight`. */
export function fieldPath(instancePath: string, child?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) segments.push(child);
  return segments.reduce((path, segment) => {
    if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
    return path === '' ? segment : `${path}.${segment}`;
  }, '');
}

function describeFirstError(errors: ErrorObject[], body: unknown): string {
  const specific = errors.filter((error) => error.keyword !== 'if');
  const error = specific.reduce<ErrorObject | undefined>(
    (best, candidate) => (best === undefined || candidate.instancePath.length > best.instancePath.length ? candidate : best),
    undefined,
  );
  if (error === undefined) return 'The request body does not match the schema.';
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return `The request body is invalid: '${fieldPath(error.instancePath, missing)}' is required.`;
  }
  const field = fieldPath(error.instancePath) || '(body)';
  const actual = JSON.stringify(valueAt(body, error.instancePath));
  const expected =
    error.keyword === 'enum'
      ? `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => `'${String(v)}'`).join(', ')}`
      : (error.message ?? 'is invalid');
  return `The request body is invalid: '${field}' ${expected}; got ${actual ?? 'nothing'}.`;
}

function valueAt(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, segment) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined), body);
}
