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

const usageBlock = (name: string) => new RegExp(`(<!-- ${name}:start -->\\n\`\`\`\\n)([\\s\\S]*?)(\`\`\`\\n<!-- ${name}:end -->)`);

/** The usage text a document (the README) shows between `<!-- name:start -->` and `<!-- name:end -->`. */
export function usageBlockOf(document: string, name: string): string | undefined {
  return usageBlock(name).exec(document)?.[2];
}

/** The document with that block's text replaced by the usage text. */
export function withUsageBlock(document: string, name: string, usage: string): string {
  return document.replace(usageBlock(name), (_match, open: string, _old: string, close: string) => `${open}${usage}${close}`);
}

/** Reads a document's usage block, first rewriting it with the usage text when asked to (UPDATE_GOLDEN in tests). */
export async function syncUsageBlock(file: string, name: string, usage: string, rewrite: boolean): Promise<string | undefined> {
  const { readFile, writeFile } = await import('node:fs/promises');
  let text = await readFile(file, 'utf8');
  if (rewrite) {
    text = withUsageBlock(text, name, usage);
    await writeFile(file, text);
  }
  return usageBlockOf(text, name);
}
