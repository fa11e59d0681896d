import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ApiextensionsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlPlaneState } from './control-plane.js';
import { isRunning } from './processes.js';
import { removeStaleWorkDirs, staleWorkDirs } from './work-dirs.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const vitest = path.join(repoRoot, 'node_modules/.bin/vitest');
const cli = path.join(import.meta.dirname, 'cli.ts');
const fixtures = path.join(import.meta.dirname, 'fixtures');
const gone = (file: string) =>
  access(file).then(
    () => false,
    () => true,
  );
const allPids = (s: ControlPlaneState) => [s.etcd.pid, ...s.clusters.flatMap((c) => c.pids)];
const noneRunning = (pids: number[]) => () => pids.every((pid) => !isRunning(pid));

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return check();
}

/**
 * Control-plane processes whose command line names dir: not the CLI that starts them, nor the folder's janitor shell
 * (it outlives its owner by design, until the folder is gone, which the tests check on their own).
 */
async function planeProcessesIn(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir) && !cmdline.includes('cli.ts') && !cmdline.includes('while kill -0')) pids.push(Number(entry));
  }
  return pids;
}

const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function temporaryDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs fixtures/start-and-wait.ts as one plain node process (no tsx relay in between) and reads its plane's state. */
async function startOwner(): Promise<{ child: ChildProcess; state: ControlPlaneState }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(fixtures, 'start-and-wait.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  const state = JSON.parse(String(first.value ?? '{}')) as ControlPlaneState;
  const kc = new KubeConfig();
  kc.loadFromFile(state.clusters[0]?.kubeconfig ?? '');
  expect((await kc.makeApiClient(CoreV1Api).readNamespace({ name: 'default' })).metadata?.name).toBe('default');
  return { child, state };
}

/** A nested Vitest whose one test starts a plane and abandons it (see fixtures/abandoned-plane.fixture.ts). */
async function runAbandoningTest(mode: 'fail' | 'hang'): Promise<{ runner: ChildProcess; stateFile: string }> {
  const stateFile = path.join(await temporaryDir('fleet-gateway-abandoned-'), 'state.json');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const runner = spawn(vitest, ['run', '--config', path.join(fixtures, 'abandoned-plane.vitest.config.ts')], {
    cwd: repoRoot,
    env: { ...env, ABANDON: mode, STATE_FILE: stateFile },
    stdio: 'ignore',
  });
  cleanups.push(async () => {
    if (runner.exitCode === null && runner.signalCode === null) runner.kill('SIGKILL');
  });
  return { runner, stateFile };
}

const readAbandoned = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as { worker: number; plane: ControlPlaneState };

describe('control plane lifecycle', () => {
  it('runs detached from a state file and the stop command ends exactly those processes', async () => {
    const dir = path.join(await temporaryDir('fleet-gateway-detached-'), 'plane');
    cleanups.unshift(async () => {
      await run(tsx, [cli, 'stop', '--dir', dir], { cwd: repoRoot }).catch(() => undefined);
    });
    const started = await run(tsx, [cli, 'start', '--clusters', 'hub,member-1', '--dir', dir], { cwd: repoRoot });
    const state = JSON.parse(started.stdout) as ControlPlaneState;
    expect(JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'))).toEqual(state);
    expect(state.clusters.map((c) => c.name)).toEqual(['hub', 'member-1']);
    // The CLI has exited; the plane it started still serves, with the CRDs installed.
    const pids = allPids(state);
    expect(pids.length).toBeGreaterThanOrEqual(5);
    expect(pids.every(isRunning)).toBe(true);
    const [hub, member] = state.clusters.map((c) => {
      const kc = new KubeConfig();
      kc.loadFromFile(c.kubeconfig);
      return kc;
    });
    const crd = await member!.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: 'internalserviceexports.networking.fleet.azure.com' });
    expect(crd.spec.names.shortNames).toEqual(['internalsvcexport']);
    // Each cluster is its own: what the hub stores, the member does not see.
    await hub!.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'hub-only' } } });
    const onMember = await member!
      .makeApiClient(CoreV1Api)
      .readNamespace({ name: 'hub-only' })
      .then(
        () => 200,
        (e: { code?: number }) => e.code,
      );
    expect(onMember).toBe(404);

    // A second start on the same folder refuses instead of orphaning the first plane.
    const again = await run(tsx, [cli, 'start', '--dir', dir], { cwd: repoRoot }).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(again).toBe(1);

    await run(tsx, [cli, 'stop', '--dir', dir], { cwd: repoRoot });
    expect(pids.filter(isRunning)).toEqual([]);
    expect(await gone(dir)).toBe(true);
  });

  it('leaves no process behind when a detached start is interrupted (SIGINT) before the plane is whole', async () => {
    const dir = path.join(await temporaryDir('fleet-gateway-interrupted-'), 'plane');
    const starter = spawn(tsx, [cli, 'start', '--clusters', 'hub,member-1', '--dir', dir], { cwd: repoRoot, stdio: 'ignore' });
    cleanups.push(async () => {
      if (starter.exitCode === null && starter.signalCode === null) starter.kill('SIGKILL');
    });
    const exited = exitOf(starter);
    // etcd and the hub's API server run; member-1 is not up yet, so no state file names them.
    expect(await waitUntil(async () => (await planeProcessesIn(dir)).length >= 2, 60_000)).toBe(true);
    starter.kill('SIGINT');
    await exited;
    expect(await waitUntil(async () => (await planeProcessesIn(dir)).length === 0, 10_000)).toBe(true);
    // The folder it created goes too: its etcd data must not be there for the next start to serve.
    expect(await waitUntil(() => gone(dir), 5_000)).toBe(true);
  });

  it('refuses to start in a folder that already holds files, and keeps them', async () => {
    const dir = path.join(await temporaryDir('fleet-gateway-occupied-'), 'plane');
    await mkdir(path.join(dir, 'etcd/data/member'), { recursive: true });
    await writeFile(path.join(dir, 'etcd/data/member/earlier'), 'an earlier plane');
    const failure = await run(tsx, [cli, 'start', '--clusters', 'hub', '--dir', dir], { cwd: repoRoot }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`refusing to start a control plane in ${dir}: it already holds files (an earlier plane's etcd data would be reused)`);
    expect(await readFile(path.join(dir, 'etcd/data/member/earlier'), 'utf8')).toBe('an earlier plane');
    expect(await planeProcessesIn(dir)).toEqual([]);
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('kills its processes and removes its folder when its owner gets %s', async (signal) => {
    const { child, state } = await startOwner();
    const exited = exitOf(child);
    child.kill(signal);
    // The owner still dies of the signal once its processes are gone.
    expect((await exited).signal).toBe(signal);
    expect(await waitUntil(noneRunning(allPids(state)), 10_000)).toBe(true);
    expect(await gone(state.workDir)).toBe(true);
  });

  it('kills its processes even when its owner is SIGKILLed, and its janitor removes the folder', async () => {
    const { child, state } = await startOwner();
    cleanups.push(() => rm(state.workDir, { recursive: true, force: true }));
    const exited = exitOf(child);
    child.kill('SIGKILL');
    await exited;
    // No exit hook ran: the kernel's parent-death signal ended the processes, the janitor removed the folder.
    expect(await waitUntil(noneRunning(allPids(state)), 10_000)).toBe(true);
    expect(await waitUntil(() => gone(state.workDir), 5_000)).toBe(true);
  });

  it('removes, at the next start, a folder whose owner died with its janitor', async () => {
    // A dead owner's pid (a process that has exited) in the name, as a folder left by a killed owner and janitor is.
    const dead = spawn('true');
    await exitOf(dead);
    const parent = await temporaryDir('fleet-gateway-stale-');
    const left = await mkdtemp(path.join(parent, `fleet-gateway-cp-${dead.pid}-`));
    const live = await mkdtemp(path.join(parent, `fleet-gateway-cp-${process.pid}-`));
    expect(await staleWorkDirs(parent)).toEqual([left]);
    await removeStaleWorkDirs(parent);
    expect(await gone(left)).toBe(true);
    expect(await gone(live)).toBe(false);
  });

  it('leaves nothing behind when a test fails without stopping its plane', async () => {
    const { runner, stateFile } = await runAbandoningTest('fail');
    expect((await exitOf(runner)).code).toBe(1);
    const { plane } = await readAbandoned(stateFile);
    expect(await waitUntil(noneRunning(allPids(plane)), 10_000)).toBe(true);
    expect(await gone(plane.workDir)).toBe(true);
  });

  it('leaves nothing behind when the test runner is killed while a test still runs', async () => {
    const { runner, stateFile } = await runAbandoningTest('hang');
    expect(
      await waitUntil(
        () =>
          access(stateFile).then(
            () => true,
            () => false,
          ),
        60_000,
      ),
    ).toBe(true);
    const { worker, plane } = await readAbandoned(stateFile);
    cleanups.push(async () => {
      // Vitest 5's watchdog SIGKILLs the worker of a killed runner (no exit hook runs: the janitor removes the
      // folder); should a worker be left waiting for its test instead, it is not the harness's to end, but ours.
      if (isRunning(worker)) process.kill(worker, 'SIGKILL');
    });
    const exited = exitOf(runner);
    runner.kill('SIGTERM');
    await exited;
    expect(await waitUntil(noneRunning(allPids(plane)), 10_000)).toBe(true);
    expect(await waitUntil(() => gone(plane.workDir), 5_000)).toBe(true);
  });
});
