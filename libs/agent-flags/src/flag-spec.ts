/** One command-line flag: node:util parseArgs' type and default, plus what `--help` says of it. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly default?: string | boolean;
  readonly short?: string;
  /** What the value looks like in the help text, e.g. `GUID` or `DURATION` (strings only). */
  readonly valueName?: string;
  readonly description: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/**
 * The help text for a set of flags, in the order given: every flag the parser takes is listed, with its default, so
 * the text cannot drift from the parser (both read the same specs).
 */
export function renderFlagHelp(usage: string, specs: FlagSpecs): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '[=true|false]';
    const short = spec.short ? `-${spec.short}, ` : '';
    const fallback = spec.default === undefined || spec.default === '' ? '' : ` (default: ${String(spec.default)})`;
    return { left: `  ${short}--${name}${value}`, right: `${spec.description}${fallback}` };
  });
  const width = Math.max(...rows.map((row) => row.left.length)) + 2;
  const lines = rows.map((row) => `${row.left.padEnd(width)}${row.right}`);
  return `${usage}\n\nFlags (a boolean also takes --no-<flag>):\n${lines.join('\n')}\n`;
}
