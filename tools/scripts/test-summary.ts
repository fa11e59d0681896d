/**
 * Adds up the Vitest JSON reports that every project writes to test-results/<project>.json and prints one line per
 * project and a closing line, "tests: N passed, N failed, N skipped" (plus test files that failed to run and
 * projects without a report); exits 1 unless every test ran and passed.
 *   pnpm exec tsx tools/scripts/test-summary.ts [test-results] [--projects a,b]
 * The projects expected default to every project with a vitest.config.ts.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarizeTests, type VitestJsonReport } from './summarize-tests.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values, positionals } = parseArgs({ allowPositionals: true, options: { projects: { type: 'string' } } });
const dir = path.resolve(positionals[0] ?? 'test-results');

/** Every project with tests: e2e itself or a folder two levels down (apps/x, libs/x, tools/x) with a vitest.config.ts. */
async function projectsWithTests(): Promise<string[]> {
  const names: string[] = [];
  if ((await readdir(path.join(repoRoot, 'e2e')).catch(() => [] as string[])).includes('vitest.config.ts')) names.push('e2e');
  for (const area of ['apps', 'libs', 'tools']) {
    for (const entry of await readdir(path.join(repoRoot, area), { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      const projectDir = path.join(repoRoot, area, entry.name);
      const files = await readdir(projectDir);
      if (!files.includes('vitest.config.ts')) continue;
      const project = JSON.parse(await readFile(path.join(projectDir, 'project.json'), 'utf8').catch(() => '{}')) as { name?: string };
      names.push(project.name ?? entry.name);
    }
  }
  return names;
}

const written = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).map((f) => path.basename(f, '.json'));
const expected = values.projects
  ? values.projects
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
  : await projectsWithTests();
const projects = [...new Set([...expected, ...written])].sort();
const reports = [];
for (const project of projects) {
  const text = written.includes(project) ? await readFile(path.join(dir, `${project}.json`), 'utf8') : undefined;
  reports.push({ project, report: text === undefined ? undefined : (JSON.parse(text) as VitestJsonReport) });
}
const summary = summarizeTests(reports);
// The runtime the tests ran on, before the closing line (which stays last).
console.log(`node ${process.version} (${process.execPath})`);
for (const line of summary.lines) console.log(line);
if (!summary.ok) process.exitCode = 1;
