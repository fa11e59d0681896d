import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spliceGeneratedSection } from './generated-section.js';
import { renderAnnotationTable, renderErrorReasonTable } from './readme-table.js';

const readmePath = join(import.meta.dirname, '..', 'README.md');

it('README tables are the ones rendered from the contract (UPDATE_GOLDEN=1 rewrites them)', () => {
  let expected = spliceGeneratedSection(readFileSync(readmePath, 'utf8'), 'annotation-table', renderAnnotationTable());
  expected = spliceGeneratedSection(expected, 'error-reasons', renderErrorReasonTable());
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(readmePath, expected);
  expect(readFileSync(readmePath, 'utf8')).toBe(expected);
});

it('refuses a document without the markers', () => {
  expect(() => spliceGeneratedSection('# title\n', 'x', 'body')).toThrow('<!-- BEGIN GENERATED: x -->');
});
