import path from 'node:path';

/** What a Vitest JSON report (reporter "json") says, as far as the summary needs it. */
export interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
  }[];
}

/** One project's report, or undefined when its test run ended without writing one. */
export interface ProjectReport {
  project: string;
  report: VitestJsonReport | undefined;
}

export interface TestSummary {
  lines: string[];
  ok: boolean;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
// eslint-disable-next-line no-control-regex -- Vitest's failure messages carry terminal colour codes
const firstLine = (text: string | undefined): string => (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0] ?? '';

/**
 * Files that failed with no failed test to show for it: a failing beforeAll (its tests count as skipped) or a file
 * that did not load. Counting only failed tests would call such a run green.
 */
function filesThatDidNotRun(report: VitestJsonReport): { name: string; message: string }[] {
  return report.testResults
    .filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'))
    .map((file) => ({ name: file.name, message: firstLine(file.message) }));
}

/**
 * Each failed test's full name and the first line of its failure. CI shows only the tail of a run, where the summary
 * sits: without these lines a failure far up in the log could not be told from its counts.
 */
function failedTests(report: VitestJsonReport): { name: string; message: string }[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => ({ name: `${path.basename(file.name)} > ${test.fullName}`, message: firstLine(test.failureMessages?.[0]) })),
  );
}

/**
 * One line per project and a closing "tests: N passed, N failed, N skipped" line, which also names test files that
 * failed to run and projects without a report. ok only when every test ran and passed, and at least one ran.
 */
export function summarizeTests(projects: ProjectReport[]): TestSummary {
  const lines: string[] = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let brokenFiles = 0;
  let missing = 0;
  for (const { project, report } of projects) {
    const label = project.padEnd(20);
    if (!report) {
      missing++;
      lines.push(`${label} no report: its test run did not finish`);
      continue;
    }
    const broken = filesThatDidNotRun(report);
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    brokenFiles += broken.length;
    const counts = `${report.numPassedTests} passed, ${report.numFailedTests} failed`;
    lines.push(broken.length === 0 ? `${label} ${counts}` : `${label} ${counts}; ${plural(broken.length, 'test file')} failed to run:`);
    for (const file of broken) lines.push(`${' '.repeat(21)}${file.name}: ${file.message}`);
    for (const test of failedTests(report)) lines.push(`${' '.repeat(21)}failed: ${test.name}: ${test.message}`);
  }
  const problems = [
    ...(brokenFiles > 0 ? [`${plural(brokenFiles, 'test file')} failed to run`] : []),
    ...(missing > 0 ? [`${plural(missing, 'project')} without a report`] : []),
  ];
  lines.push([`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`, ...problems].join(', '));
  return { lines, ok: failed === 0 && brokenFiles === 0 && missing === 0 && passed > 0 };
}
