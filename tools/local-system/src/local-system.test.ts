import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CdnManagementClient } from '@azure/arm-cdn';
import { DefaultAzureCredential } from '@azure/identity';
import { CoreV1Api, KubeConfig, type V1Service } from '@kubernetes/client-node';
import { managedIdentityEnvironment, OTHER_CREDENTIAL_VARIABLES, sdkClientOptions, stubCredential } from '@fleet-gateway/azure-emulator';
import { isRunning, type ControlPlaneState } from '@fleet-gateway/control-plane';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AzureSideInfo } from './azure-side-info.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(import.meta.dirname, 'cli.ts');
let dir = '';

afterAll(async () => {
  vi.unstubAllEnvs();
  if (dir) {
    await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot }).catch(() => undefined);
    await rm(path.dirname(dir), { recursive: true, force: true });
  }
});

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the local system (make local-up / local-down)', () => {
  it('starts control planes and the Azure side detached, serves both, and stops exactly what it started', async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'fleet-gateway-local-')), 'system');
    const up = await run(tsx, [cli, 'up', '--clusters', 'hub,member-1', '--dir', dir, '--without-agents'], { cwd: repoRoot });
    const printed = JSON.parse(up.stdout) as { kubeconfigs: Record<string, string>; azure: AzureSideInfo };
    expect(Object.keys(printed.kubeconfigs)).toEqual(['hub', 'member-1']);
    const plane = JSON.parse(await readFile(path.join(dir, 'plane/state.json'), 'utf8')) as ControlPlaneState;
    const pids = [plane.etcd.pid, ...plane.clusters.flatMap((c) => c.pids), printed.azure.pid];
    expect(pids.every(isRunning)).toBe(true);

    // ARM answers the unmodified SDK client, with a token DefaultAzureCredential takes from the recorded
    // managed-identity endpoint, and refuses one the emulator did not issue.
    for (const name of OTHER_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    for (const [name, value] of Object.entries(managedIdentityEnvironment(printed.azure))) vi.stubEnv(name, value);
    const caCertificate = await readFile(printed.azure.caCertificatePath, 'utf8');
    const clientOptions = sdkClientOptions({ armEndpoint: printed.azure.armEndpoint, caCertificate }, 0);
    const cdn = new CdnManagementClient(new DefaultAzureCredential(), printed.azure.subscriptionId, clientOptions);
    const profiles = [];
    for await (const profile of cdn.profiles.list()) profiles.push(profile);
    expect(profiles).toEqual([]);
    // The Azure side created the hub's resource group: a profile can go in it (ARM refuses a missing group).
    const profile = await cdn.profiles.beginCreateAndWait(printed.azure.afdResourceGroup, 'fd', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, { updateIntervalInMs: 50 });
    expect(profile.provisioningState).toBe('Succeeded');
    const stub = new CdnManagementClient(stubCredential, printed.azure.subscriptionId, clientOptions);
    await expect(stub.profiles.get(printed.azure.afdResourceGroup, 'fd')).rejects.toMatchObject({ statusCode: 401, code: 'InvalidAuthenticationToken' });

    // The member's cloud-provider stand-in gives an internal LoadBalancer Service an address.
    const member = new KubeConfig();
    member.loadFromFile(printed.kubeconfigs['member-1'] ?? '');
    const core = member.makeApiClient(CoreV1Api);
    await core.createNamespacedService({
      namespace: 'default',
      body: {
        metadata: { name: 'web', annotations: { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' } },
        spec: { type: 'LoadBalancer', ports: [{ port: 80, targetPort: 8080 }], selector: { app: 'web' } },
      },
    });
    const service = await eventually<V1Service>(
      () => core.readNamespacedService({ name: 'web', namespace: 'default' }),
      (s) => (s.status?.loadBalancer?.ingress?.length ?? 0) > 0,
    );
    expect(service.status?.loadBalancer?.ingress?.[0]?.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

    await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot });
    const deadline = Date.now() + 10_000;
    while (pids.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(pids.filter(isRunning)).toEqual([]);
    await expect(readFile(path.join(dir, 'azure.json'))).rejects.toThrow();
  });
});
