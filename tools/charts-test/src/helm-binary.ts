import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fillCacheDir } from '@fleet-gateway/control-plane';

const run = promisify(execFile);

/** The one pin of Helm: go/go.mod requires helm.sh/helm/v4 at this version (a test keeps them equal). */
export const HELM_VERSION = 'v4.3.1';
const here = path.dirname(fileURLToPath(import.meta.url));
export const HELM_GO_MODULE_DIR = path.resolve(here, '../go');
export const REPO_ROOT = path.resolve(here, '../../..');
const CACHE_DIR = path.join(REPO_ROOT, '.cache/helm');

/** The cache key: the version and the module files that decide the build (go.mod, go.sum). */
async function moduleHash(): Promise<string> {
  const hash = createHash('sha256').update(HELM_VERSION);
  for (const file of ['go.mod', 'go.sum']) hash.update('\0').update(await readFile(path.join(HELM_GO_MODULE_DIR, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Returns the path of helm, built from the helm.sh/helm/v4 Go module (go.mod's `tool` line) into
 * .cache/helm/<version>-<hash>/ on first use; a fresh machine needs only Go and the Go module proxy.
 */
export async function ensureHelm(log: (line: string) => void = () => {}): Promise<string> {
  const dir = path.join(CACHE_DIR, `${HELM_VERSION}-${await moduleHash()}`);
  const helm = path.join(dir, 'helm');
  if (existsSync(helm)) return helm;
  log(`building helm ${HELM_VERSION} into ${dir} (cold: minutes)`);
  const started = Date.now();
  const ldflags = `-s -w -X helm.sh/helm/v4/internal/version.version=${HELM_VERSION}`;
  await fillCacheDir(dir, async (staging) => {
    await run('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', `${staging}/`, 'helm.sh/helm/v4/cmd/helm'], {
      cwd: HELM_GO_MODULE_DIR,
      env: { ...process.env, CGO_ENABLED: '0' },
      maxBuffer: 64 * 1024 * 1024,
    });
  });
  log(`built helm in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return helm;
}
