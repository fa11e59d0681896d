import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'assert-no-leftovers.sh');

// The check runs on a checkout of its own (a copy of the script in a temporary "repository") with a TMPDIR of its
// own, so the real tests running beside it on this machine are none of its business; the strays are real processes
// whose command lines are what the project's would be.
let root = '';
let tmp = '';
const strays: ChildProcess[] = [];

beforeAll(async () => {
  const base = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-leftovers-'));
  root = path.join(base, 'checkout');
  tmp = path.join(base, 'tmp');
  await mkdir(path.join(root, 'tools/scripts'), { recursive: true });
  await mkdir(tmp);
  await copyFile(script, path.join(root, 'tools/scripts/assert-no-leftovers.sh'));
});
afterEach(async () => {
  for (const stray of strays.splice(0)) {
    if (stray.exitCode === null && stray.signalCode === null) {
      const exited = new Promise((resolve) => stray.once('exit', resolve));
      // Each stray leads its own group: a shell's sleep goes with it.
      process.kill(-(stray.pid ?? 0), 'SIGKILL');
      await exited;
    }
  }
  await rm(path.join(root, '.cache'), { recursive: true, force: true });
  for (const entry of ['fleet-gateway-cp-1-x', 'fleet-gateway-local-1-x']) await rm(path.join(tmp, entry), { recursive: true, force: true });
});
afterAll(() => rm(path.dirname(root), { recursive: true, force: true }));

async function check(): Promise<{ code: number; output: string }> {
  const env = { PATH: process.env.PATH ?? '', TMPDIR: tmp };
  return run('bash', [path.join(root, 'tools/scripts/assert-no-leftovers.sh')], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}

/** Writes an idle program at root/<file> and runs it, as `command [prefix...] <file>` from cwd. */
async function startStray(file: string, options: { command?: string; prefix?: string[]; cwd?: string; relative?: boolean } = {}): Promise<ChildProcess> {
  const absolute = path.join(root, file);
  await mkdir(path.dirname(absolute), { recursive: true });
  const shell = options.command === undefined && !/\.(m?js|ts)$/.test(file);
  await writeFile(absolute, shell ? '#!/bin/sh\nsleep 300\n' : 'setInterval(() => {}, 60_000);\n');
  if (shell) await chmod(absolute, 0o755);
  const target = options.relative ? file : absolute;
  const [command, args] = shell ? [absolute, []] : [options.command ?? process.execPath, [...(options.prefix ?? []), target]];
  const stray = spawn(command, args, { cwd: options.cwd ?? root, stdio: 'ignore', detached: true });
  strays.push(stray);
  await new Promise((resolve) => stray.once('spawn', resolve));
  // Long enough for exec and for node to be running the file.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return stray;
}

/** A stand-in for tsx's loader, so that `node --import tsx` runs in the temporary checkout. */
async function fakeTsxPackage(): Promise<void> {
  const dir = path.join(root, 'node_modules/tsx');
  await mkdir(path.join(dir, 'dist'), { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'tsx', type: 'module', exports: './dist/loader.mjs' }));
  await writeFile(path.join(dir, 'dist/loader.mjs'), '');
}

describe('assert-no-leftovers.sh', () => {
  it('passes on a quiet machine', async () => {
    expect(await check()).toEqual({ code: 0, output: expect.stringContaining('no process or folder left behind') });
  });

  it.each([
    ['control-plane binary', '.cache/control-plane/0123456789abcdef/etcd', {}],
    ['Azure side / emulator', 'tools/local-system/src/azure-side.ts', {}],
    ['Azure side / emulator', 'tools/azure-emulator/src/cli.ts', {}],
    ['agent', 'dist/apps/hub-gateway/main.mjs', {}],
    ['agent', 'dist/apps/member-discovery/main.mjs', { relative: true }],
    ['agent', 'apps/member-discovery/src/main.ts', {}],
    ['tsx', 'node_modules/.pnpm/tsx@4.23.15/node_modules/tsx/dist/cli.mjs', {}],
  ] as const)('fails on a stray %s (%s)', async (kind, file, options) => {
    const stray = await startStray(file, options);
    const result = await check();
    expect(result.code).toBe(1);
    expect(result.output).toContain(`left running after the tests (${kind}): ${stray.pid} `);
  });

  it("fails on a stray process run with tsx's loader from the checkout", async () => {
    await fakeTsxPackage();
    const stray = await startStray('tools/some-tool.mjs', { prefix: ['--import', 'tsx'], relative: true });
    const result = await check();
    expect(result.code).toBe(1);
    expect(result.output).toContain(`left running after the tests (tsx): ${stray.pid} `);
  });

  it('fails on folders whose owner is gone, and on a local-system folder without a running system', async () => {
    const dead = spawn('true');
    await new Promise((resolve) => dead.once('exit', resolve));
    for (const kind of ['cp', 'local']) await mkdir(path.join(tmp, `fleet-gateway-${kind}-${dead.pid}-x`));
    await mkdir(path.join(root, '.cache/local-system/plane/etcd'), { recursive: true });
    await mkdir(path.join(root, '.cache/e2e/local-system'), { recursive: true });
    const result = await check();
    await rm(path.join(tmp, `fleet-gateway-cp-${dead.pid}-x`), { recursive: true });
    await rm(path.join(tmp, `fleet-gateway-local-${dead.pid}-x`), { recursive: true });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`folder left behind by process ${dead.pid}: ${tmp}/fleet-gateway-cp-${dead.pid}-x`);
    expect(result.output).toContain(`folder left behind by process ${dead.pid}: ${tmp}/fleet-gateway-local-${dead.pid}-x`);
    expect(result.output).toContain(`local-system folder left behind without a running system: ${root}/.cache/local-system`);
    expect(result.output).toContain(`local-system folder left behind without a running system: ${root}/.cache/e2e/local-system`);
  });

  it('leaves out a local system started on purpose: the processes its record names and their groups', async () => {
    const azureSide = await startStray('tools/local-system/src/azure-side.ts');
    const etcd = await startStray('.cache/control-plane/0123456789abcdef/etcd');
    const record = {
      status: 'running',
      owner: 1,
      startedAt: '2026-12-01T12:00:00.000Z',
      clusters: ['hub'],
      plane: { workDir: '', etcd: { endpoint: '', pid: etcd.pid }, clusters: [] },
      processes: [{ name: 'azure-side', pid: azureSide.pid, pgid: azureSide.pid, logFile: '', marker: '' }],
    };
    await mkdir(path.join(root, '.cache/local-system'), { recursive: true });
    await writeFile(path.join(root, '.cache/local-system/state.json'), JSON.stringify(record));
    expect(await check()).toEqual({ code: 0, output: expect.stringContaining('no process or folder left behind') });
    // A stray beside it still counts, and so does the folder once its record no longer says "running".
    const stray = await startStray('dist/apps/hub-gateway/main.mjs');
    expect((await check()).output).toContain(`left running after the tests (agent): ${stray.pid} `);
    await writeFile(path.join(root, '.cache/local-system/state.json'), JSON.stringify({ ...record, status: 'starting' }));
    const starting = await check();
    expect(starting.output).toContain(`(Azure side / emulator): ${azureSide.pid} `);
    expect(starting.output).toContain('local-system folder left behind without a running system');
  });
});
