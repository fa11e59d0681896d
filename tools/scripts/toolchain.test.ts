import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const installScript = path.join(repoRoot, 'tools/install-registry-package.sh');

/** tools/toolchain.env as bash reads it. */
async function toolchain(): Promise<Record<string, string>> {
  const { stdout } = await run('bash', ['-c', 'set -a; source tools/toolchain.env; env -0'], { cwd: repoRoot, env: {} });
  return Object.fromEntries(
    stdout
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

describe('the pinned toolchain', () => {
  it('runs these tests on the pinned Node line, which package.json engines require', async () => {
    const pins = await toolchain();
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(major(pins.NODE_VERSION ?? '')).toBeGreaterThanOrEqual(Number(pins.NODE_MIN_MAJOR));
    expect(pkg.engines.node).toBe(`>=${pins.NODE_MIN_MAJOR}.0.0`);
    expect(major(process.version)).toBeGreaterThanOrEqual(Number(pins.NODE_MIN_MAJOR));
    for (const key of ['NODE_INTEGRITY', 'PNPM_INTEGRITY']) expect(pins[key]).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
  });

  it('puts the pinned Node and pnpm first on PATH through tools/node-env.sh, once however often it is sourced', async () => {
    const pins = await toolchain();
    const pathAfter = async (script: string) =>
      (await run('bash', ['-c', `${script} printf %s "$PATH"`], { cwd: repoRoot, env: { PATH: '/usr/bin:/bin' } })).stdout.split(':');
    const before = await pathAfter('');
    expect(await pathAfter('source tools/node-env.sh; source tools/node-env.sh;')).toEqual([
      path.join(repoRoot, '.cache/node', pins.NODE_VERSION ?? '', 'bin'),
      path.join(repoRoot, '.cache/pnpm', pins.PNPM_VERSION ?? ''),
      ...before,
    ]);
  });
});

describe('install-registry-package.sh', () => {
  let dir: string;
  let packageDir: string;
  let integrity: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-toolchain-'));
    // A package folder: `npm pack` takes it like a registry spec, so the check runs without the network.
    packageDir = path.join(dir, 'tiny-tool');
    await mkdir(path.join(packageDir, 'bin'), { recursive: true });
    await writeFile(path.join(packageDir, 'package.json'), JSON.stringify({ name: 'tiny-tool', version: '1.0.0' }));
    await writeFile(path.join(packageDir, 'bin/tool'), '#!/bin/sh\necho tiny\n', { mode: 0o755 });
    const packed = path.join(dir, 'packed');
    await mkdir(packed);
    await run('npm', ['pack', '--silent', packageDir], { cwd: packed });
    const [tarball] = await readdir(packed);
    integrity = `sha512-${createHash('sha512')
      .update(await readFile(path.join(packed, tarball ?? '')))
      .digest('base64')}`;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('unpacks a package whose tarball matches the pinned integrity', async () => {
    const target = path.join(dir, 'good/tiny-tool');
    await run(installScript, [packageDir, integrity, target]);
    expect(await readFile(path.join(target, 'bin/tool'), 'utf8')).toContain('echo tiny');
  });

  it('refuses a tarball that does not match, naming both hashes, and keeps what the target held', async () => {
    const target = path.join(dir, 'bad/tiny-tool');
    await mkdir(target, { recursive: true });
    await writeFile(path.join(target, 'kept'), 'previous install');
    const wrong = `sha512-${createHash('sha512').update('something else').digest('base64')}`;
    const failure = await run(installScript, [packageDir, wrong, target]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/integrity mismatch for .*tiny-tool: expected sha512 [0-9a-f]{128}, got [0-9a-f]{128}; nothing installed/);
    expect(await readFile(path.join(target, 'kept'), 'utf8')).toBe('previous install');
  });

  it('refuses an integrity that is not sha512', async () => {
    const failure = await run(installScript, [packageDir, 'sha1-abc', path.join(dir, 'sha1/tiny-tool')]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("must be sha512-<base64>, got 'sha1-abc'");
  });
});
