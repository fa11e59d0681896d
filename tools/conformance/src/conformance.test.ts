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

  it(`${release}: every test it runs passes, and the run claims what the committed report claims`, async () => {
    const report = path.join(work, 'report.yaml');
    const logFile = path.join(work, 'go-test.log');
    // The status tests need only the hub (no member, no traffic: see skip-tests.yaml).
    const status = await runConformance({ release, dir: path.join(work, 'system'), clusters: ['hub'], report, logFile, log: () => {} });
    const output = await readFile(logFile, 'utf8');
    expect(status, `go test failed:\n${output.slice(-20_000)}`).toBe(0);

    const fresh = await readReport(report);
    expect(failedTests(fresh)).toEqual([]);
    // The GatewayClass's supportedFeatures are what the run claims (the harness passes them to the suite), so this
    // also fails when the class starts publishing other features than the committed report says.
    const committed = await readReport(reportPath(release, await implementationVersion()));
    expect(reportClaims(fresh)).toEqual(reportClaims(committed));
  });
});
