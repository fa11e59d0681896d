import { execFile, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { CoreV1Api, KubeConfig, ApiextensionsV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlPlaneState } from './control-plane.js';
import { isRunning } from './processes.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(import.meta.dirname, 'cli.ts');
const gone = (file: string) => access(file).then(() => false, () => true);
const allPids = (s: ControlPlaneState) => [s.etcd.pid, ...s.clusters.flatMap((c) => c.pids)];

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return check();
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('control plane lifecycle', () => {
  it('runs detached from a state file and the stop command ends exactly those processes', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'fleet-gateway-detached-')), 'plane');
    cleanups.push(async () => {
      await run(tsx, [cli, 'stop', '--dir', dir], { cwd: repoRoot }).catch(() => undefined);
      await rm(path.dirname(dir), { recursive: true, force: true });
    });
    const started = await run(tsx, [cli, 'start', '--clusters', 'hub,member-1', '--dir', dir], { cwd: repoRoot });
    const state = JSON.parse(started.stdout) as ControlPlaneState;
    expect(JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'))).toEqual(state);
    expect(state.clusters.map((c) => c.name)).toEqual(['hub', 'member-1']);
    // The CLI has exited; the plane it started still serves, with the CRDs installed.
    const pids = allPids(state);
    expect(pids.length).toBeGreaterThanOrEqual(5);
    expect(pids.every(isRunning)).toBe(true);
    const kc = new KubeConfig();
    kc.loadFromFile(state.clusters[1]?.kubeconfig ?? '');
    const crd = await kc.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: 'internalserviceexports.networking.fleet.azure.com' });
    expect(crd.spec.names.shortNames).toEqual(['internalsvcexport']);

    // A second start on the same folder refuses instead of orphaning the first plane.
    const again = await run(tsx, [cli, 'start', '--dir', dir], { cwd: repoRoot }).then(() => 0, (e: { code: number }) => e.code);
    expect(again).toBe(1);

    await run(tsx, [cli, 'stop', '--dir', dir], { cwd: repoRoot });
    expect(pids.filter(isRunning)).toEqual([]);
    expect(await gone(dir)).toBe(true);
  });

  it('kills its processes and removes its folder when its owner gets SIGTERM', async () => {
    const child = spawn(tsx, [path.join(import.meta.dirname, 'fixtures/start-and-wait.ts')], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const [line] = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value as string]);
    const state = JSON.parse(line ?? '{}') as ControlPlaneState;
    const kc = new KubeConfig();
    kc.loadFromFile(state.clusters[0]?.kubeconfig ?? '');
    expect((await kc.makeApiClient(CoreV1Api).readNamespace({ name: 'default' })).metadata?.name).toBe('default');

    // tsx relays the signal to the node process it runs and then exits on its behalf.
    const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)));
    child.kill('SIGTERM');
    expect(await exited).toBe(true);
    expect(await waitUntil(() => allPids(state).every((pid) => !isRunning(pid)), 10_000)).toBe(true);
    expect(await gone(state.workDir)).toBe(true);
  });
});
