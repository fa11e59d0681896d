import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spliceGeneratedSection } from '@fleet-gateway/annotations';
import { expect, it } from 'vitest';
import { renderVerdictTable } from './verdict-catalog.js';

const readmePath = join(import.meta.dirname, '..', '..', 'README.md');

it('README verdict table is the one rendered from the catalog (UPDATE_GOLDEN=1 rewrites it)', () => {
  const expected = spliceGeneratedSection(readFileSync(readmePath, 'utf8'), 'verdict-table', renderVerdictTable());
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(readmePath, expected);
  expect(readFileSync(readmePath, 'utf8')).toBe(expected);
});
