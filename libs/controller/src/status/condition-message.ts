/** The Gateway API CRDs' bound on a condition message (`maxLength` of `conditions[].message`). */
export const CONDITION_MESSAGE_LIMIT = 32_768;

/** List separators of our messages, coarsest first: sentence parts (`joinMessages`), then items within a part. */
const SEPARATORS = ['; ', ', '] as const;

function more(count: number): string {
  return `… and ${count} more`;
}

function capList(message: string, limit: number, level: number): string {
  const separator = SEPARATORS[level];
  if (separator === undefined) {
    const omitted = ` … (${message.length} characters in all)`;
    return `${message.slice(0, Math.max(0, limit - omitted.length))}${omitted}`;
  }
  const items = message.split(separator);
  if (items.length < 2) return capList(message, limit, level + 1);
  // The most whole items that fit with the count of the rest after them.
  let length = 0;
  let kept = 0;
  for (const item of items) {
    const next = length + (kept > 0 ? separator.length : 0) + item.length;
    if (next + separator.length + more(items.length - kept - 1).length > limit) break;
    length = next;
    kept += 1;
  }
  if (kept > 0) return `${items.slice(0, kept).join(separator)}${separator}${more(items.length - kept)}`;
  // Not even the first item fits: cut it at its own list boundary, then count the items after it.
  const rest = `${separator}${more(items.length - 1)}`;
  return `${capList(items[0]!, limit - rest.length, level + 1)}${rest}`;
}

/**
 * A condition message within `limit` characters (by default the CRDs' bound: a longer one makes the API server refuse
 * the whole status write). It is cut at a list boundary and says how much was left out: `…; … and 37 more`.
 */
export function capMessage(message: string, limit = CONDITION_MESSAGE_LIMIT): string {
  if (message.length <= limit) return message;
  const capped = capList(message, limit, 0);
  // Under a limit shorter than the counts themselves (never the CRDs'), the bound still holds: a plain cut.
  return capped.length <= limit ? capped : `${message.slice(0, Math.max(0, limit - 1))}…`;
}
