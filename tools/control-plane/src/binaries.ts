import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fillCacheDir } from './cache-dir.js';

const run = promisify(execFile);

export const KUBERNETES_VERSION = 'v1.36.3';
const here = path.dirname(fileURLToPath(import.meta.url));
const goModuleDir = path.resolve(here, '../go');
const repoRoot = path.resolve(here, '../../..');
export const BINARY_CACHE_DIR = path.join(repoRoot, '.cache/control-plane');

export interface ControlPlaneBinaries {
  etcd: string;
  kubeApiServer: string;
  /** Absent only when KUBEBUILDER_ASSETS names a folder without it. */
  kubeControllerManager?: string;
}

/** The envtest convention: a folder that already holds the binaries wins over building them. */
async function fromAssetsDir(dir: string): Promise<ControlPlaneBinaries> {
  const etcd = path.join(dir, 'etcd');
  const kubeApiServer = path.join(dir, 'kube-apiserver');
  const kcm = path.join(dir, 'kube-controller-manager');
  for (const required of [etcd, kubeApiServer]) {
    if (!existsSync(required)) {
      throw new Error(`KUBEBUILDER_ASSETS=${dir} has no ${path.basename(required)}; expected kube-apiserver and etcd there`);
    }
  }
  return { etcd, kubeApiServer, ...(existsSync(kcm) ? { kubeControllerManager: kcm } : {}) };
}

/** The cache key covers everything that decides the binaries: the wrapper module and its mains. */
async function wrapperModuleHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = ['go.mod', 'go.sum'];
  for (const cmd of (await readdir(path.join(goModuleDir, 'cmd'))).sort()) files.push(`cmd/${cmd}/main.go`);
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(await readFile(path.join(goModuleDir, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function binariesIn(dir: string): ControlPlaneBinaries {
  return {
    etcd: path.join(dir, 'etcd'),
    kubeApiServer: path.join(dir, 'kube-apiserver'),
    kubeControllerManager: path.join(dir, 'kube-controller-manager'),
  };
}

async function buildInto(dir: string, log: (line: string) => void): Promise<void> {
  const ldflags = [
    '-s -w',
    `-X k8s.io/component-base/version.gitVersion=${KUBERNETES_VERSION}`,
    '-X k8s.io/component-base/version.gitMajor=1',
    `-X k8s.io/component-base/version.gitMinor=${KUBERNETES_VERSION.split('.')[1]}`,
  ].join(' ');
  log(`building kube-apiserver, etcd and kube-controller-manager ${KUBERNETES_VERSION} into ${dir} (cold: several minutes)`);
  const started = Date.now();
  await fillCacheDir(dir, async (staging) => {
    await run('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', `${staging}/`, './cmd/...'], {
      cwd: goModuleDir,
      env: { ...process.env, CGO_ENABLED: '0' },
      maxBuffer: 64 * 1024 * 1024,
    });
  });
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Returns the control-plane binaries: those in KUBEBUILDER_ASSETS when it is set, otherwise the ones built from
 * tools/control-plane/go into .cache/control-plane/<hash>/, building them first when the wrapper module changed.
 */
export async function ensureBinaries(log: (line: string) => void = () => {}): Promise<ControlPlaneBinaries> {
  const assets = process.env.KUBEBUILDER_ASSETS;
  if (assets) return fromAssetsDir(assets);
  const dir = path.join(BINARY_CACHE_DIR, await wrapperModuleHash());
  const binaries = binariesIn(dir);
  const complete = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!complete) await buildInto(dir, log);
  return binaries;
}
