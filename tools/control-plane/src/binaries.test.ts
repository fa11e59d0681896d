import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBinaries } from './binaries.js';
import { startControlPlane } from './control-plane.js';

const saved = process.env.KUBEBUILDER_ASSETS;
const dirs: string[] = [];
afterEach(async () => {
  if (saved === undefined) delete process.env.KUBEBUILDER_ASSETS;
  else process.env.KUBEBUILDER_ASSETS = saved;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function assetsDir(binaries: string[]): Promise<string> {
  delete process.env.KUBEBUILDER_ASSETS;
  const built = await ensureBinaries();
  const dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-assets-'));
  dirs.push(dir);
  const source: Record<string, string | undefined> = {
    'kube-apiserver': built.kubeApiServer,
    etcd: built.etcd,
    'kube-controller-manager': built.kubeControllerManager,
  };
  for (const name of binaries) await symlink(source[name] ?? '', path.join(dir, name));
  return dir;
}

describe('binaries from KUBEBUILDER_ASSETS (the envtest convention)', () => {
  it('refuses a folder without kube-apiserver and etcd, naming what is missing', async () => {
    process.env.KUBEBUILDER_ASSETS = await assetsDir(['kube-apiserver']);
    await expect(ensureBinaries()).rejects.toThrow(/KUBEBUILDER_ASSETS=.* has no etcd/);
  });

  it('uses the binaries found there instead of building, and runs without kube-controller-manager', async () => {
    const dir = await assetsDir(['kube-apiserver', 'etcd']);
    process.env.KUBEBUILDER_ASSETS = dir;
    expect(await ensureBinaries()).toEqual({ kubeApiServer: path.join(dir, 'kube-apiserver'), etcd: path.join(dir, 'etcd') });
    await expect(startControlPlane({ clusters: ['hub'] })).rejects.toThrow(/kube-controller-manager is not available/);
    const plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
    try {
      const namespaces = await plane.cluster('hub').kubeConfig().makeApiClient(CoreV1Api).listNamespace();
      expect(namespaces.items.map((n) => n.metadata?.name)).toContain('default');
      expect(plane.pids()).toHaveLength(2);
    } finally {
      await plane.stop();
    }
  });
});
