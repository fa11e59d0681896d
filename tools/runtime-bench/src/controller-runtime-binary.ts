import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fillCacheDir } from '@fleet-gateway/control-plane';
import { bundleEntry } from '@fleet-gateway/scripts';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const goModuleDir = path.resolve(here, '../go');
const cacheRoot = path.resolve(here, '../../../.cache/runtime-bench');

/**
 * The controller-runtime probe, built from tools/runtime-bench/go into .cache/runtime-bench/<hash>/ (the hash covers
 * go.mod, go.sum and the main), as tools/control-plane builds its binaries: only when the module changed.
 */
export async function ensureControllerRuntimeProbe(log: (line: string) => void): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum', 'cmd/runtime-bench/main.go']) {
    hash
      .update(file)
      .update('\0')
      .update(await readFile(path.join(goModuleDir, file)))
      .update('\0');
  }
  const dir = path.join(cacheRoot, hash.digest('hex').slice(0, 16));
  const binary = path.join(dir, 'runtime-bench');
  if (existsSync(binary)) return binary;
  log(`building the controller-runtime probe into ${dir} (cold: a few minutes)`);
  await fillCacheDir(dir, async (staging) => {
    await run('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', `${staging}/`, './cmd/runtime-bench'], {
      cwd: goModuleDir,
      env: { ...process.env, CGO_ENABLED: '0' },
      maxBuffer: 64 * 1024 * 1024,
    });
  });
  return binary;
}

/** Our probe, bundled as the agents are (plain `node`, no tsx), into .cache/runtime-bench/ours-probe.mjs. */
export async function bundleOurProbe(): Promise<string> {
  return bundleEntry(path.join(here, 'ours-probe.ts'), path.join(cacheRoot, 'ours-probe.mjs'), path.resolve(here, '../tsconfig.json'));
}
