import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { usageBlockOf, withUsageBlock } from '@fleet-gateway/agent-flags';
import { describe, expect, it } from 'vitest';
import { HUB_USAGE } from './flags.js';

const readme = path.resolve(import.meta.dirname, '../../../README.md');

describe('README agent flags', () => {
  it('show exactly what --help prints (rewrite with UPDATE_GOLDEN=1)', async () => {
    let text = await readFile(readme, 'utf8');
    if (process.env['UPDATE_GOLDEN'] === '1') {
      text = withUsageBlock(text, 'hub-usage', HUB_USAGE);
      await writeFile(readme, text);
    }
    expect(usageBlockOf(text, 'hub-usage')).toBe(HUB_USAGE);
  });
});
