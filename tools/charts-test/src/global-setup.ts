import { ensureHadolint } from './hadolint-binary.js';
import { ensureHelm } from './helm-binary.js';
import { buildChartDependencies } from './helm.js';

/** Once per run: helm (built from Go on first use) and hadolint in .cache/, and the charts' dependency packed fresh. */
export default async function setup(): Promise<void> {
  const log = (line: string) => console.log(`[charts-test] ${line}`);
  await ensureHelm(log);
  await ensureHadolint(log);
  await buildChartDependencies();
}
