import path from 'node:path';
import { ensureGoTool, REPO_ROOT } from './go-tool-binary.js';

export { REPO_ROOT };

/** The one pin of Helm: go/go.mod requires helm.sh/helm/v4 at this version (a test keeps them equal). */
export const HELM_VERSION = 'v4.3.1';
export const HELM_GO_MODULE_DIR = path.join(REPO_ROOT, 'tools/charts-test/go');

/** Returns the path of helm, built from the helm.sh/helm/v4 Go module into .cache/helm/<version>-<hash>/ on first use. */
export function ensureHelm(log: (line: string) => void = () => {}): Promise<string> {
  return ensureGoTool(
    {
      name: 'helm',
      version: HELM_VERSION,
      moduleDir: HELM_GO_MODULE_DIR,
      packagePath: 'helm.sh/helm/v4/cmd/helm',
      ldflags: `-s -w -X helm.sh/helm/v4/internal/version.version=${HELM_VERSION}`,
    },
    log,
  );
}
