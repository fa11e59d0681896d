import path from 'node:path';
import { ensureGoTool, REPO_ROOT } from './go-tool-binary.js';

/** The one pin of promtool: promtool/go.mod requires github.com/prometheus/prometheus at this version (a test keeps them equal). */
export const PROMETHEUS_MODULE_VERSION = 'v0.316.0';
export const PROMTOOL_GO_MODULE_DIR = path.join(REPO_ROOT, 'tools/charts-test/promtool');

/**
 * Returns the path of promtool, built from the Prometheus Go module into .cache/promtool/<version>-<hash>/ on first use.
 * remove_all_sd leaves out the cloud service discoveries (AWS, Azure, GCE, …), which rule checks and rule tests never
 * use: it halves the cold build.
 */
export function ensurePromtool(log: (line: string) => void = () => {}): Promise<string> {
  return ensureGoTool(
    {
      name: 'promtool',
      version: PROMETHEUS_MODULE_VERSION,
      moduleDir: PROMTOOL_GO_MODULE_DIR,
      packagePath: 'github.com/prometheus/prometheus/cmd/promtool',
      ldflags: '-s -w',
      tags: 'remove_all_sd',
    },
    log,
  );
}
