import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helm-binary.js';
import { ensureShellcheck } from './pypi-binaries.js';

/** E2E_MODE=azure's scripts: they cannot run here (no Azure), so they are linted and reviewed. */
const AZURE_SCRIPTS_DIR = path.join(REPO_ROOT, 'e2e/azure');

const shellcheck = (args: readonly string[], stdin?: string) =>
  ensureShellcheck().then(
    (binary) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        // From the repository root, so that the scripts' `# shellcheck source=e2e/azure/lib.sh` directives resolve.
        const child = execFile(binary, ['--color=never', '--external-sources', ...args], { cwd: REPO_ROOT }, (error, stdout) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
        );
        child.stdin?.end(stdin ?? '');
      }),
  );

describe('shellcheck', () => {
  it('finds nothing in any of e2e/azure/*.sh, at every severity', async () => {
    const scripts = (await readdir(AZURE_SCRIPTS_DIR)).filter((f) => f.endsWith('.sh')).sort();
    expect(scripts).toEqual(['cleanup.sh', 'lib.sh', 'setup.sh']);
    const result = await shellcheck(['--severity=style', ...scripts.map((f) => path.join('e2e/azure', f))]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('every script that runs stops on the first error, an unset variable or a failed pipe', async () => {
    for (const script of ['setup.sh', 'cleanup.sh']) {
      const text = await readFile(path.join(AZURE_SCRIPTS_DIR, script), 'utf8');
      expect(text.startsWith('#!/usr/bin/env bash\n'), script).toBe(true);
      expect(text, script).toMatch(/^set -euo pipefail$/m);
    }
  });

  it('finds an unquoted variable (the linter is not blind)', async () => {
    const result = await shellcheck(['--shell=bash', '-'], '#!/usr/bin/env bash\nset -euo pipefail\nrm -rf $1/cache\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('SC2086');
  });
});
