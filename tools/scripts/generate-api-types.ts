/**
 * Generates libs/api-types/src/generated/*.generated.ts from the CRD schemas: the newest supported Gateway API release (from its Go module)
 * and the project's Fleet CRDs. Run: pnpm tsx tools/scripts/generate-api-types.ts [--check]
 * With --check it writes nothing and exits 1 when a committed file differs from what the schemas give.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderApiTypes } from './render-api-types.js';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../libs/api-types/src/generated');
const check = process.argv.includes('--check');

const files = await renderApiTypes();
let stale = 0;
for (const [name, text] of Object.entries(files)) {
  const file = path.join(outDir, name);
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === text) continue;
  if (check) {
    stale++;
    console.error(`${path.relative(process.cwd(), file)} is out of date; run pnpm tsx tools/scripts/generate-api-types.ts`);
  } else {
    await writeFile(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
if (stale > 0) process.exitCode = 1;
