import type { AnnotationError, AnnotationResult } from './annotation-error.js';
import type { AnnotationSpec, ConfigOf, KindContract, SpecTable } from './annotation-spec.js';
import { closestKey } from './closest-key.js';
import { annotationContracts, RESERVED_PREFIX } from './contract.js';

/** metadata.annotations, or a listener's tls.options (whose generated type allows undefined values). */
export type AnnotationMap = Readonly<Record<string, string | undefined>>;

const MAX_QUOTED_VALUE = 200;

/** Quotes a value for a status message: escapes control characters and bounds its length. */
function quote(value: string): string {
  if (value.length <= MAX_QUOTED_VALUE) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, MAX_QUOTED_VALUE))}... (${value.length} characters)`;
}

function isReservedKey(key: string): boolean {
  return key.toLowerCase().startsWith(RESERVED_PREFIX);
}

function specFor(contract: KindContract<SpecTable>, key: string): AnnotationSpec<unknown> | undefined {
  return Object.values(contract.keys).find((spec) => spec.key === key);
}

function unknownKeyError(contract: KindContract<SpecTable>, key: string, value: string): AnnotationError {
  const allowed = Object.values(contract.keys).map((spec) => spec.key);
  const expected = allowed.length > 0 ? `one of ${allowed.join(', ')}` : `no ${RESERVED_PREFIX}* key`;
  const owner = annotationContracts.find((other) => other !== contract && specFor(other, key));
  const allKeys = annotationContracts.flatMap((c) => Object.values(c.keys).map((spec) => spec.key));
  const suggestion = closestKey(key, allKeys);
  // The hint is the expected form when there is one; otherwise the message lists what the object accepts.
  const hint = owner ? `; it belongs ${owner.placement}` : suggestion ? `; did you mean "${suggestion}"?` : `; expected ${expected}`;
  return {
    key,
    value,
    expected,
    reason: contract.reason,
    message: `annotation "${key}" with value ${quote(value)} is not supported ${contract.placement}${hint}`,
  };
}

function invalidValueError(contract: KindContract<SpecTable>, spec: AnnotationSpec<unknown>, value: string): AnnotationError {
  const { key } = spec;
  const expected = spec.parser.expected;
  const message = `annotation "${key}" has unsupported value ${quote(value)}; expected ${expected}`;
  return { key, value, expected, reason: contract.reason, message };
}

/** Checks one key of an object of the contract's kind; undefined when the key is acceptable there. */
export function checkAnnotation(contract: KindContract<SpecTable>, key: string, value: string): AnnotationError | undefined {
  const spec = specFor(contract, key);
  if (spec) return spec.parser.parse(value).ok ? undefined : invalidValueError(contract, spec, value);
  const reservedSpec = contract.reserved.find((r) => r.key === key);
  if (reservedSpec) {
    const expected = reservedSpec.parser.expected;
    const message = `annotation "${key}" with value ${quote(value)} is reserved and not supported; expected ${expected}`;
    return { key, value, expected, reason: contract.reason, message };
  }
  return unknownKeyError(contract, key, value);
}

/**
 * Parses the keys of one object against its kind's contract. Keys outside the reserved prefix are ignored; every
 * problem is reported, in key order; defaults apply only to absent keys.
 */
export function parseAnnotations<S extends SpecTable>(contract: KindContract<S>, annotations: AnnotationMap | undefined): AnnotationResult<ConfigOf<S>> {
  const entries = Object.entries(annotations ?? {})
    .filter((entry): entry is [string, string] => entry[1] !== undefined && isReservedKey(entry[0]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const errors: AnnotationError[] = [];
  for (const [key, value] of entries) {
    const error = checkAnnotation(contract, key, value);
    if (error) errors.push(error);
  }
  if (errors.length > 0) return { ok: false, errors };

  const config: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(contract.keys)) {
    const raw = annotations?.[spec.key];
    const parsed = raw === undefined ? undefined : spec.parser.parse(raw);
    config[field] = parsed?.ok ? parsed.value : spec.defaultValue;
  }
  return { ok: true, config: config as ConfigOf<S> };
}

export type KeyResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AnnotationError };

/**
 * Reads one key of an object on its own, so that a caller can honour a valid key while other keys of the same object
 * are invalid (the deletion policy; the SKU and timeout that route verdicts depend on). Absent: the default.
 * Invalid: the error, never the default.
 */
export function readAnnotation<S extends SpecTable, F extends keyof S & string>(
  contract: KindContract<S>,
  field: F,
  annotations: AnnotationMap | undefined,
): KeyResult<ConfigOf<S>[F]> {
  const spec: AnnotationSpec<unknown> = contract.keys[field] as S[F];
  const raw = annotations?.[spec.key];
  if (raw === undefined) return { ok: true, value: spec.defaultValue as ConfigOf<S>[F] };
  const parsed = spec.parser.parse(raw);
  return parsed.ok ? { ok: true, value: parsed.value as ConfigOf<S>[F] } : { ok: false, error: invalidValueError(contract, spec, raw) };
}
