import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spliceGeneratedSection } from './generated-section.js';
import { renderAnnotationTable, renderErrorReasonTable } from './readme-table.js';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** Each document that carries tables rendered from the contract, and which ones. */
const DOCUMENTS: { path: string; sections: Record<string, () => string> }[] = [
  { path: 'libs/annotations/README.md', sections: { 'annotation-table': renderAnnotationTable, 'error-reasons': renderErrorReasonTable } },
  { path: 'docs/guide.md', sections: { 'annotation-table': renderAnnotationTable } },
];

it.each(DOCUMENTS)('$path carries the tables rendered from the contract (UPDATE_GOLDEN=1 rewrites them)', ({ path, sections }) => {
  const file = join(repoRoot, path);
  const expected = Object.entries(sections).reduce((text, [name, render]) => spliceGeneratedSection(text, name, render()), readFileSync(file, 'utf8'));
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, expected);
  expect(readFileSync(file, 'utf8')).toBe(expected);
});

it('refuses a document without the markers', () => {
  expect(() => spliceGeneratedSection('# title\n', 'x', 'body')).toThrow('<!-- BEGIN GENERATED: x -->');
});
