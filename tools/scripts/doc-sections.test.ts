import { describe, expect, it } from 'vitest';
import { DOC_SECTIONS, renderedDocuments } from './doc-sections.js';
import { spliceGeneratedSection } from './generated-section.js';

describe("the documents' generated blocks", () => {
  it.each([...new Set(DOC_SECTIONS.map((s) => s.file))])('%s is current (pnpm nx run scripts:docs rewrites it)', async (file) => {
    const { current, rendered } = (await renderedDocuments(DOC_SECTIONS.filter((s) => s.file === file))).get(file)!;
    expect(current).toBe(rendered);
  });

  it('replaces exactly the text between the markers, and refuses a document without them', () => {
    const text = '# title\n<!-- BEGIN GENERATED: x -->\nold\n<!-- END GENERATED: x -->\nafter\n';
    expect(spliceGeneratedSection(text, 'x', 'new')).toBe('# title\n<!-- BEGIN GENERATED: x -->\nnew\n<!-- END GENERATED: x -->\nafter\n');
    expect(() => spliceGeneratedSection('# title\n', 'x', 'body')).toThrow('<!-- BEGIN GENERATED: x -->');
  });
});
