import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalSystem, stopLocalSystem } from '@fleet-gateway/local-system';
import { parse } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CONFORMANCE_DIR = path.resolve(here, '..');
const SUITE_DIR = path.join(CONFORMANCE_DIR, 'suite');
const REPO_ROOT = path.resolve(CONFORMANCE_DIR, '../..');
export const PROJECT = 'fleet-gateway-afd';

/**
 * The Gateway API releases the harness runs upstream's suite of, and how `go test` selects each: the module file
 * pinning that release and the build tag for the options whose types changed between them.
 */
export const SUITE_RELEASES = {
  'v1.2.1': { goArgs: [] as string[] },
  'v1.6.3': { goArgs: ['-modfile=go.v1.6.3.mod', '-tags=gatewayapi_v1_6'] },
} as const;
export type SuiteRelease = keyof typeof SUITE_RELEASES;

export function suiteRelease(version: string): SuiteRelease {
  if (!Object.hasOwn(SUITE_RELEASES, version)) {
    throw new Error(`GATEWAY_API_VERSION=${version} has no conformance suite here; expected one of ${Object.keys(SUITE_RELEASES).join(', ')}`);
  }
  return version as SuiteRelease;
}

/** Where upstream keeps a report: conformance/reports/<gateway-api version>/<project>/<project>-<version>-<mode>-report.yaml. */
export const reportPath = (release: SuiteRelease, implementationVersion: string): string =>
  path.join(CONFORMANCE_DIR, 'reports', release, PROJECT, `${PROJECT}-${implementationVersion}-default-report.yaml`);

/** The implementation's version: the hub chart's appVersion, as a tag. */
export async function implementationVersion(): Promise<string> {
  const chart = parse(await readFile(path.join(REPO_ROOT, 'charts/hub-gateway/Chart.yaml'), 'utf8')) as { appVersion: string };
  return `v${chart.appVersion}`;
}

export interface ConformanceRunOptions {
  release: SuiteRelease;
  /** The local system's folder (must not hold another system). */
  dir: string;
  /** hub plus the members to start; the status tests need only the hub. */
  clusters: string[];
  /** Where the ConformanceReport goes. */
  report: string;
  /** go test's output (and the local system's progress) go there. */
  logFile: string;
  log: (line: string) => void;
}

/**
 * Starts the local system on the chosen Gateway API release (hub CRDs, both agents, the Azure emulator and its
 * edge, no sample), runs upstream's suite of that release against its hub, and stops everything whatever happens.
 * Resolves with go test's exit status.
 */
export async function runConformance(options: ConformanceRunOptions): Promise<number> {
  const { release, dir, log } = options;
  // The control plane installs the release GATEWAY_API_VERSION names (defaultGatewayApiVersion).
  process.env.GATEWAY_API_VERSION = release;
  await mkdir(path.dirname(options.logFile), { recursive: true });
  const output = createWriteStream(options.logFile);
  const say = (line: string): void => {
    output.write(`${line}\n`);
    log(line);
  };
  const version = await implementationVersion();
  try {
    const system = await startLocalSystem({ dir, clusters: options.clusters, withAgents: true, sample: false, timing: 'fast', log: say });
    const hub = system.plane.clusters.find((c) => c.name === 'hub')!;
    say(`running sigs.k8s.io/gateway-api/conformance ${release} against ${hub.server} (${PROJECT} ${version})`);
    return await goTest(
      SUITE_RELEASES[release].goArgs,
      { KUBECONFIG: hub.kubeconfig, CONFORMANCE_REPORT: options.report, CONFORMANCE_IMPLEMENTATION_VERSION: version },
      output,
    );
  } finally {
    await stopLocalSystem(dir);
    say(`stopped the local system in ${dir}`);
    output.end();
  }
}

function goTest(goArgs: readonly string[], env: Record<string, string>, output: NodeJS.WritableStream): Promise<number> {
  // The suite bounds each wait itself (upstream's TimeoutConfig); -timeout only bounds a hung run.
  const args = ['test', ...goArgs, '-count=1', '-timeout=60m', '-v', '-run', '^TestConformance$', '.'];
  const child = spawn('go', args, { cwd: SUITE_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(output, { end: false });
  child.stderr.pipe(output, { end: false });
  const stop = (): void => void child.kill('SIGTERM');
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve(code ?? 1);
    });
  });
}
