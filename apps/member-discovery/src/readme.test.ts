import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { usageBlockOf, withUsageBlock } from '@fleet-gateway/agent-flags';
import { describe, expect, it } from 'vitest';
import { MEMBER_USAGE } from './flags.js';

const readme = path.resolve(import.meta.dirname, '../../../README.md');

describe('README agent flags', () => {
  it('show exactly what --help prints (rewrite with UPDATE_GOLDEN=1)', async () => {
    let text = await readFile(readme, 'utf8');
    if (process.env['UPDATE_GOLDEN'] === '1') {
      text = withUsageBlock(text, 'member-usage', MEMBER_USAGE);
      await writeFile(readme, text);
    }
    expect(usageBlockOf(text, 'member-usage')).toBe(MEMBER_USAGE);
  });
});
