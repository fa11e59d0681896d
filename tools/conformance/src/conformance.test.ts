import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultGatewayApiVersion } from '@fleet-gateway/control-plane';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { implementationVersion, reportPath, runConformance, suiteRelease } from './conformance-run.js';
import { failedTests, reportClaims, type ConformanceReport } from './report-claims.js';

const work = await mkdtemp(path.join(tmpdir(), 'conformance-'));
afterAll(() => rm(work, { recursive: true, force: true }));

const readReport = async (file: string): Promise<ConformanceReport> => parse(await readFile(file, 'utf8')) as ConformanceReport;

describe("upstream's Gateway API conformance suite on the local hub", () => {
  const release = suiteRelease(defaultGatewayApiVersion());

  it(`${release}: the run on the local hub claims exactly what the committed report claims`, async () => {
    const report = path.join(work, 'report.yaml');
    const logFile = path.join(work, 'go-test.log');
    // The status tests need only the hub (no member, no traffic: see skip-tests.yaml).
    await runConformance({ release, dir: path.join(work, 'system'), clusters: ['hub'], report, logFile, log: () => {} });
    const output = await readFile(logFile, 'utf8');
    const fresh = await readReport(report).catch((error: unknown) => {
      throw new Error(`the suite wrote no report (${String(error)}):\n${output.slice(-20_000)}`);
    });
    // Results, skips and failures per profile, and the features claimed, which the harness takes from the
    // GatewayClass status the hub agent writes: a change in any of them fails here until the report is regenerated
    // (make conformance GATEWAY_API_VERSION=...), so the committed report stays true.
    const committed = await readReport(reportPath(release, await implementationVersion()));
    expect(reportClaims(fresh), `failed tests: ${failedTests(fresh).join(', ') || 'none'}; go test said:\n${output.slice(-5_000)}`).toEqual(
      reportClaims(committed),
    );
  });
});
