import { deepFreeze } from '../../util/deep-freeze.js';

const limit = 1024;
const parsed = new Map<string, unknown>();

/**
 * A metav1.FieldsV1's JSON text, parsed once and shared by every object that carries the same text. Objects written
 * by one field manager carry the same FieldsV1 (10,000 ConfigMaps of one writer, one text), so this spares a
 * `JSON.parse` and the six or so objects it makes per object; Go keeps FieldsV1 as raw bytes and never parses it.
 * A shared value is deep-frozen: writing to it throws instead of changing other objects. At most 1,024 texts are
 * held; when full, the map starts over.
 */
export function parsedFieldsV1(text: string): unknown {
  let value = parsed.get(text);
  if (value === undefined) {
    if (parsed.size >= limit) parsed.clear();
    value = deepFreeze(JSON.parse(text) as unknown);
    parsed.set(text, value);
  }
  return value;
}
