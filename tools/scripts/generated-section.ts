/**
 * Replaces the text between `<!-- BEGIN GENERATED: name -->` and `<!-- END GENERATED: name -->` in a document: the
 * repository's one marker syntax for Markdown rendered from the code or data it describes (doc-sections.ts).
 */
export function spliceGeneratedSection(text: string, name: string, body: string): string {
  const begin = `<!-- BEGIN GENERATED: ${name} -->`;
  const end = `<!-- END GENERATED: ${name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document lacks the ${begin} ... ${end} markers`);
  return `${text.slice(0, from + begin.length)}\n${body}\n${text.slice(to)}`;
}
