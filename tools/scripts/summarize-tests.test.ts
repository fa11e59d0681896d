import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeTests, type VitestJsonReport } from './summarize-tests.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const vitest = path.join(repoRoot, 'node_modules/.bin/vitest');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
let dir: string;

/** Runs the given fixture files in a nested Vitest and returns the JSON report it wrote, as `make test` gets it. */
async function reportOf(...fixtures: string[]): Promise<VitestJsonReport> {
  const outputFile = path.join(dir, `${fixtures.join('+')}.json`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const config = path.join(import.meta.dirname, 'fixtures/summary.vitest.config.ts');
  await run(vitest, ['run', '--config', config, '--reporter=json', `--outputFile=${outputFile}`, ...fixtures], { cwd: repoRoot, env }).catch(() => undefined);
  return JSON.parse(await readFile(outputFile, 'utf8')) as VitestJsonReport;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-summary-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('summarizeTests over real Vitest reports', () => {
  it('passes a run whose tests all passed, counting skipped ones', async () => {
    const summary = summarizeTests([{ project: 'a', report: await reportOf('passing') }]);
    expect(summary.lines.at(-1)).toBe('tests: 1 passed, 0 failed, 1 skipped');
    expect(summary.ok).toBe(true);
  });

  it('fails a run with a failed test and counts it', async () => {
    const summary = summarizeTests([
      { project: 'a', report: await reportOf('passing') },
      { project: 'b', report: await reportOf('failing-test') },
    ]);
    expect(summary.lines).toEqual([
      'a                    1 passed, 0 failed',
      'b                    0 passed, 1 failed',
      // The failed test by file and name, with the first line of its failure, free of colour codes.
      '                     failed: failing-test.fixture.ts > fails: AssertionError: expected 2 to be 3 // Object.is equality',
      'tests: 1 passed, 1 failed, 1 skipped',
    ]);
    expect(summary.ok).toBe(false);
  });

  it('fails a run whose beforeAll failed although no test is counted as failed', async () => {
    const report = await reportOf('passing', 'failing-hook');
    expect(report.numFailedTests).toBe(0);
    const summary = summarizeTests([{ project: 'a', report }]);
    expect(summary.lines[1]).toMatch(/failing-hook\.fixture\.ts: control plane did not start$/);
    expect(summary.lines.at(-1)).toBe('tests: 1 passed, 0 failed, 2 skipped, 1 test file failed to run');
    expect(summary.ok).toBe(false);
  });

  it('fails when a project wrote no report, or when no test ran at all', () => {
    expect(summarizeTests([{ project: 'gone', report: undefined }])).toEqual({
      lines: ['gone                 no report: its test run did not finish', 'tests: 0 passed, 0 failed, 0 skipped, 1 project without a report'],
      ok: false,
    });
    const empty: VitestJsonReport = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, success: true, testResults: [] };
    expect(summarizeTests([{ project: 'empty', report: empty }]).ok).toBe(false);
  });
});

describe('test-summary.ts', () => {
  it('reads test-results/<project>.json, prints the closing line last and exits 1 for a missing project', async () => {
    const results = path.join(dir, 'results');
    await run('mkdir', ['-p', results]);
    await writeFile(path.join(results, 'a.json'), JSON.stringify(await reportOf('passing')));
    const script = path.join(import.meta.dirname, 'test-summary.ts');
    const ok = await run(tsx, [script, results, '--projects', 'a'], { cwd: repoRoot });
    expect(ok.stdout.trim().split('\n').at(-1)).toBe('tests: 1 passed, 0 failed, 1 skipped');
    const missing = await run(tsx, [script, results, '--projects', 'a,b'], { cwd: repoRoot }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout.trim().split('\n').at(-1)).toBe('tests: 1 passed, 0 failed, 1 skipped, 1 project without a report');
  });
});
