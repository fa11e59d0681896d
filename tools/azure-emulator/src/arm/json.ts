export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A copy without null-valued members: ARM treats an explicit null in a PUT body as "not specified". */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item)) as T;
  if (!isJsonObject(value)) return value;
  const result: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null) result[key] = withoutNulls(member);
  }
  return result as T;
}

/** JSON merge patch (RFC 7396): objects merge member by member, null removes a member, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return structuredClone(patch);
  const result: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
