/**
 * Upstream's Gateway API conformance suite against the local system (make conformance):
 *   run [--gateway-api-version v1.2.1|v1.6.3] [--clusters hub,member-1] [--dir .cache/conformance] [--report PATH]
 * starts the local system on that release, runs the suite, writes the ConformanceReport (default: upstream's layout
 * under tools/conformance/reports/) and stops everything; go test's output goes to <dir>.log.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultGatewayApiVersion } from '@fleet-gateway/control-plane';
import { implementationVersion, reportPath, runConformance, suiteRelease } from './conformance-run.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'gateway-api-version': { type: 'string' },
    clusters: { type: 'string', default: 'hub,member-1' },
    dir: { type: 'string', default: '.cache/conformance' },
    report: { type: 'string' },
  },
});

async function main(): Promise<number> {
  if (positionals[0] !== 'run') {
    console.error('usage: conformance run [--gateway-api-version v1.2.1|v1.6.3] [--clusters hub,member-1] [--dir DIR] [--report PATH]');
    return 2;
  }
  const release = suiteRelease(values['gateway-api-version'] ?? defaultGatewayApiVersion());
  const clusters = values.clusters.split(',').map((c) => c.trim());
  if (!clusters.includes('hub')) throw new Error(`--clusters must include "hub", got "${values.clusters}"`);
  const dir = path.resolve(values.dir);
  const report = path.resolve(values.report ?? reportPath(release, await implementationVersion()));
  const status = await runConformance({ release, dir, clusters, report, logFile: `${dir}.log`, log: (line) => console.error(line) });
  console.error(status === 0 ? `every test that ran passed; report: ${report}` : `go test exited ${status}; see ${dir}.log; report (when written): ${report}`);
  return status;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  return 1;
});
