import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderApiTypes } from './render-api-types.js';

const GENERATED_DIR = path.resolve(import.meta.dirname, '../../libs/api-types/src/generated');

describe('generated API types (libs/api-types)', () => {
  it('match what the CRD schemas generate today', async () => {
    const files = await renderApiTypes();
    expect(Object.keys(files)).toHaveLength(8);
    for (const [name, text] of Object.entries(files)) {
      const committed = await readFile(path.join(GENERATED_DIR, name), 'utf8');
      expect(committed, `${name} is stale: run pnpm tsx tools/scripts/generate-api-types.ts`).toBe(text);
    }
  });
});
