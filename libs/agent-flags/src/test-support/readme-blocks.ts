// Test-only: the READMEs show generated text (flag usage, feature lists) between markers, and tests keep them equal.

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
