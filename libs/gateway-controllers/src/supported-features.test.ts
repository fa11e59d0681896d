import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { syncUsageBlock } from '@fleet-gateway/agent-flags/test-support';
import { gatewayApiModuleDir } from '@fleet-gateway/control-plane';
import { compareText } from '@fleet-gateway/api-types';
import { describe, expect, it } from 'vitest';
import { renderSupportedFeatures, SUPPORTED_FEATURES } from './supported-features.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every test and suite title written as a string literal in a `*.test.ts` file of the repository. */
async function testTitles(): Promise<Set<string>> {
  const titles = new Set<string>();
  for (const top of ['apps', 'libs', 'tools', 'e2e']) {
    const files = (await readdir(path.join(repoRoot, top), { recursive: true })).filter(
      (f) => f.endsWith('.test.ts') && !f.split(path.sep).includes('node_modules'),
    );
    for (const file of files) {
      const text = await readFile(path.join(repoRoot, top, file), 'utf8');
      for (const match of text.matchAll(/\b(?:it|test|describe)(?:\.each\([\s\S]*?\))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
        titles.add(match[2]!.replace(/\\(.)/g, '$1'));
      }
    }
  }
  return titles;
}

describe('the supported features', () => {
  it('each names the title of a test in a *.test.ts file', async () => {
    const titles = await testTitles();
    // The lookup itself: it finds this very test, and not a title that differs by one character.
    expect(titles.has('each names the title of a test in a *.test.ts file')).toBe(true);
    expect(titles.has('each names the title of a test in a *.test.ts file.')).toBe(false);
    const untested = SUPPORTED_FEATURES.filter((f) => !titles.has(f.test)).map((f) => `${f.name}: "${f.test}"`);
    expect(untested).toEqual([]);
  });

  it('are Gateway API v1.2.1 feature names, listed once each, in ascending order', async () => {
    const featuresDir = path.join(await gatewayApiModuleDir(), 'pkg/features');
    const sources = await Promise.all((await readdir(featuresDir)).map((f) => readFile(path.join(featuresDir, f), 'utf8')));
    const known = new Set(sources.flatMap((s) => [...s.matchAll(/FeatureName = "([^"]+)"/g)].map((m) => m[1]!)));
    const names = SUPPORTED_FEATURES.map((f) => f.name);
    expect(names.filter((n) => !known.has(n))).toEqual([]);
    expect(names).toEqual([...new Set(names)].sort(compareText));
  });

  it('the README lists exactly these (rewrite with UPDATE_GOLDEN=1)', async () => {
    const rendered = renderSupportedFeatures();
    const readme = path.join(repoRoot, 'README.md');
    expect(await syncUsageBlock(readme, 'supported-features', rendered, process.env['UPDATE_GOLDEN'] === '1')).toBe(rendered);
  });
});
