import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { GATEWAY_API_VERSIONS, gatewayApiModuleDir, type GatewayApiVersion } from '@fleet-gateway/control-plane';
import { compareText } from '@fleet-gateway/api-types';
import { describe, expect, it } from 'vitest';
import { OLDEST_SUPPORTED_RELEASE } from './gateway-api-release.js';
import { SUPPORTED_FEATURES, supportedFeaturesFor } from './supported-features.js';

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

  it('are listed once each, in ascending order', () => {
    const names = SUPPORTED_FEATURES.map((f) => f.name);
    expect(names).toEqual([...new Set(names)].sort(compareText));
  });

  it('start in the oldest supported release of the test matrix', () => {
    expect(OLDEST_SUPPORTED_RELEASE).toBe(GATEWAY_API_VERSIONS[0]);
  });

  it.each(GATEWAY_API_VERSIONS)('on %s: every name listed is one that release defines, and each defined feature since its first release', async (version) => {
    const known = await featureNames(version);
    const listed = supportedFeaturesFor(version).map((f) => f.name);
    expect(listed.filter((n) => !known.has(n))).toEqual([]);
    // Exactly the features that this release defines: none held back by a `since` later than the release defining it.
    const definedHere = SUPPORTED_FEATURES.filter((f) => known.has(f.name)).map((f) => f.name);
    expect(listed).toEqual(definedHere);
  });
});

/** The feature names a release's `pkg/features` defines (`FeatureName = "..."`). */
async function featureNames(version: GatewayApiVersion): Promise<Set<string>> {
  const featuresDir = path.join(await gatewayApiModuleDir(version), 'pkg/features');
  const sources = await Promise.all((await readdir(featuresDir)).map((f) => readFile(path.join(featuresDir, f), 'utf8')));
  return new Set(sources.flatMap((s) => [...s.matchAll(/FeatureName = "([^"]+)"/g)].map((m) => m[1]!)));
}
