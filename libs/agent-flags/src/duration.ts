const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go-style duration such as "15s", "500ms" or "1m30s" into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN);
  }
  return Number.isFinite(total) ? total : undefined;
}
