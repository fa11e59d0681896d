/**
 * Adds up the Vitest JSON reports that every project writes to test-results/ and prints one closing line,
 * "tests: N passed, N failed, N skipped"; exits 1 when a test failed or when no test ran at all.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
}

const dir = path.resolve(process.argv[2] ?? 'test-results');
const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  const report = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as VitestJsonReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(`${path.basename(file, '.json').padEnd(20)} ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exitCode = 1;
