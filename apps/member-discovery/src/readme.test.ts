import path from 'node:path';
import { syncUsageBlock } from '@fleet-gateway/agent-flags/test-support';
import { expect, it } from 'vitest';
import { MEMBER_USAGE } from './flags.js';

it('the README shows exactly what --help prints (rewrite with UPDATE_GOLDEN=1)', async () => {
  const readme = path.resolve(import.meta.dirname, '../../../README.md');
  expect(await syncUsageBlock(readme, 'member-usage', MEMBER_USAGE, process.env['UPDATE_GOLDEN'] === '1')).toBe(MEMBER_USAGE);
});
