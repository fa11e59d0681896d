import { DEFAULT_WEIGHT, MAX_WEIGHT, WEIGHT_ANNOTATION } from './member-names.js';

export type ExportWeight = { readonly ok: true; readonly weight: number } | { readonly ok: false; readonly error: string };

/** Go's strconv.Atoi in base 10: an optional sign and decimal digits, nothing else, within int64. */
const GO_INTEGER = /^[+-]?\d{1,18}$/;

/**
 * The weight of an export from its ServiceExport annotation, as upstream reads it
 * (objectmeta.ExtractWeightFromServiceExport): absent means 1; otherwise an integer in [0, 1000], with upstream's
 * error texts, which end up in the `Valid` condition's message.
 */
export function parseExportWeight(annotations: Readonly<Record<string, string>> | undefined): ExportWeight {
  const value = annotations?.[WEIGHT_ANNOTATION];
  if (value === undefined) return { ok: true, weight: DEFAULT_WEIGHT };
  if (!GO_INTEGER.test(value)) return { ok: false, error: `the weight annotation is not a valid integer: ${value}` };
  const weight = Number(value);
  if (weight < 0 || weight > MAX_WEIGHT) {
    return { ok: false, error: `the weight annotation is not in the range [0, ${MAX_WEIGHT}]: ${value}` };
  }
  return { ok: true, weight };
}
