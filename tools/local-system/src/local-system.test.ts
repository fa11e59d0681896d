import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CdnManagementClient } from '@azure/arm-cdn';
import { DefaultAzureCredential } from '@azure/identity';
import { CoreV1Api, KubeConfig, type V1Service } from '@kubernetes/client-node';
import { managedIdentityEnvironment, OTHER_CREDENTIAL_VARIABLES, sdkClientOptions, stubCredential } from '@fleet-gateway/azure-emulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isLive, processGroupMembers } from './managed-process.js';
import { recordedPids, type LocalSystemRecord } from './state-record.js';
import { processesNaming } from './testing/processes-naming.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(import.meta.dirname, 'cli.ts');
let parent = '';
let dir = '';
/** What the up that started the system printed. */
let output = { stdout: '', stderr: '' };

beforeAll(async () => {
  // The owner's pid in the name lets tools/scripts/assert-no-leftovers.sh tell a folder left behind from one in use.
  parent = await mkdtemp(path.join(tmpdir(), `fleet-gateway-local-${process.pid}-`));
  dir = path.join(parent, 'system');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot }).catch(() => undefined);
  await rm(parent, { recursive: true, force: true });
});

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if ((value !== undefined && done(value)) || Date.now() > deadline) return value as T;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const kubeConfigFrom = (file: string) => {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
};
const readRecordFile = async () => JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8')) as LocalSystemRecord;

describe('the local system (make local-up / local-down)', () => {
  it('refuses a folder that holds files but no record of its own, and leaves them untouched', async () => {
    const foreign = path.join(parent, 'foreign');
    await mkdir(path.join(foreign, 'plane/etcd/data/member'), { recursive: true });
    await writeFile(path.join(foreign, 'plane/etcd/data/member/db'), 'objects of an earlier run');
    const failure = await run(tsx, [cli, 'up', '--clusters', 'hub', '--dir', foreign, '--without-agents'], { cwd: repoRoot }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      `${foreign} holds files (plane) but no completed record of a local system (state.json); local-up never reuses data it did not record as its own`,
    );
    expect(failure?.stderr).toContain(`rm -rf ${foreign}`);
    expect(failure?.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(path.join(foreign, 'plane/etcd/data/member/db'), 'utf8')).toBe('objects of an earlier run');
    expect(await processesNaming(foreign)).toEqual([]);
  });

  it('an up interrupted by Ctrl-C leaves nothing, and the next up starts on new data', async () => {
    // As Ctrl-C does, SIGINT goes to the whole foreground process group: the tsx wrapper and the CLI under it.
    const starter = spawn(tsx, [cli, 'up', '--clusters', 'hub,member-1', '--dir', dir, '--without-agents'], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let progress = '';
    starter.stderr?.on('data', (chunk: Buffer) => (progress += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => starter.once('exit', (code) => resolve(code)));
    const hubKubeconfig = path.join(dir, 'plane/hub/kubeconfig');
    // Mid-start: the hub serves (member-1, the CRDs and the Azure side are still to come). Store an object in it.
    const hub = await eventually(
      async () =>
        kubeConfigFrom(hubKubeconfig)
          .makeApiClient(CoreV1Api)
          .readNamespace({ name: 'default' })
          .then(() => kubeConfigFrom(hubKubeconfig)),
      () => true,
      120_000,
    );
    await hub.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'from-the-interrupted-run' } } });
    const startedProcesses = (await processesNaming(dir)).map((p) => p.pid);
    expect(startedProcesses.length).toBeGreaterThanOrEqual(3);
    process.kill(-(starter.pid ?? 0), 'SIGINT');
    expect(await exited).not.toBe(0);
    expect(progress).toContain('waiting until it serves');
    expect(progress).not.toContain('the local system is up');
    // Nothing is left: no process, no folder (etcd data, PKI, record).
    expect(
      await eventually(
        () => processesNaming(dir),
        (pids) => pids.length === 0,
        10_000,
      ),
    ).toEqual([]);
    expect(startedProcesses.filter(isLive)).toEqual([]);
    expect(
      await eventually(
        () => exists(dir),
        (there) => !there,
        5_000,
      ),
    ).toBe(false);

    // The remains of a start whose owner was killed outright (its record says "starting", its owner is gone) are
    // wiped, not reused.
    await mkdir(path.join(dir, 'plane/etcd/data/member'), { recursive: true });
    await writeFile(path.join(dir, 'plane/etcd/data/member/db'), 'objects of a killed run');
    const dead = spawn('true');
    await new Promise((resolve) => dead.once('exit', resolve));
    const remains: LocalSystemRecord = { status: 'starting', owner: dead.pid ?? 0, startedAt: '2026-01-01T00:00:00.000Z', clusters: ['hub'], processes: [] };
    await writeFile(path.join(dir, 'state.json'), JSON.stringify(remains));

    const beforeUp = Date.now();
    const up = await run(tsx, [cli, 'up', '--clusters', 'hub,member-1', '--dir', dir, '--without-agents'], { cwd: repoRoot });
    output = up;
    expect(up.stderr).toContain(
      `removing the remains of an earlier local system in ${dir} (started 2026-01-01T00:00:00.000Z by process ${dead.pid}, its start was interrupted); nothing of it is reused`,
    );
    const etcdData = await stat(path.join(dir, 'plane/etcd/data'));
    expect(etcdData.birthtimeMs || etcdData.ctimeMs).toBeGreaterThanOrEqual(beforeUp - 1_000);
    expect(await exists(path.join(dir, 'plane/etcd/data/member/db'))).toBe(false);
    const record = await readRecordFile();
    const fresh = kubeConfigFrom(record.plane?.clusters.find((c) => c.name === 'hub')?.kubeconfig ?? '').makeApiClient(CoreV1Api);
    const reappeared = await fresh.readNamespace({ name: 'from-the-interrupted-run' }).then(
      () => 200,
      (error: { code?: number }) => error.code,
    );
    expect(reappeared).toBe(404);
  });

  it('says what it waits for in every phase and ends with the lines to copy', async () => {
    const record = await readRecordFile();
    expect(record.status).toBe('running');
    const progress = output.stderr.split('\n');
    const phases = [
      'starting etcd…',
      'starting kube-apiserver for hub, waiting until it serves…',
      'starting kube-apiserver for member-1, waiting until it serves…',
      'installing CRDs in member-1, waiting until they are served…',
      'starting the Azure side: Azure emulator (ARM, edge, admin API) and cloud-provider stand-ins for member-1…',
      'azure side: starting the Azure emulator…',
      'azure side: starting the cloud-provider stand-in for member-1 (watching its Services)…',
      'azure side: Azure side ready',
    ];
    for (const phase of phases) expect(progress).toContain(phase);
    expect(progress.map((line) => phases.indexOf(line)).filter((i) => i >= 0)).toEqual(phases.map((_, i) => i));
    expect(progress).toContainEqual(expect.stringMatching(/^the local system is up in \d+ s$/));
    // The lines to copy end what it prints on stderr; stdout has the same as JSON.
    const summary = output.stderr.trimEnd().split('\n');
    const printed = JSON.parse(output.stdout) as { kubeconfigs: Record<string, string> };
    expect(printed.kubeconfigs).toEqual({ hub: record.plane?.clusters[0]?.kubeconfig, 'member-1': record.plane?.clusters[1]?.kubeconfig });
    const [hub, member] = record.plane?.clusters ?? [];
    expect(summary).toContainEqual(expect.stringMatching(new RegExp(`^  export KUBECONFIG=${hub?.kubeconfig} +# hub \\(${hub?.server}\\)$`)));
    expect(summary).toContainEqual(expect.stringMatching(new RegExp(`^  export KUBECONFIG=${member?.kubeconfig} +# member-1 `)));
    expect(summary).toContain(`  edge (AFD):    ${record.azure?.edgeUrl}`);
    expect(summary).toContain(`  export IDENTITY_ENDPOINT=${record.azure?.identityEndpoint} IDENTITY_HEADER=${record.azure?.identityHeader}`);
    expect(summary.at(-1)).toBe(
      `  pnpm exec tsx tools/local-system/src/cli.ts backend --dir ${dir} --cluster member-1 --service <namespace>/<name> --port <service port> --target 127.0.0.1:8080`,
    );
    // The backend command takes only the system's member clusters.
    const refused = await run(tsx, [cli, 'backend', '--dir', dir, '--cluster', 'hub', '--service', 'shop/web', '--port', '80', '--target', '127.0.0.1:8080'], {
      cwd: repoRoot,
    }).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(refused).toContain('--cluster must be a member cluster of this local system (member-1), got "hub"');
  });

  it('serves control planes and the Azure side detached, maps a backend, and down stops exactly what up started', async () => {
    const record = await readRecordFile();
    const azure = record.azure;
    expect(azure).toBeDefined();
    if (azure === undefined) return;
    expect(record.plane?.clusters.map((c) => c.name)).toEqual(['hub', 'member-1']);
    const pids = recordedPids(record);
    expect(pids.every(isLive)).toBe(true);
    // The Azure side is recorded as the real process (no tsx wrapper) leading its own process group.
    const [azureSide] = record.processes;
    expect(azureSide).toMatchObject({ name: 'azure-side', pid: azure.pid, pgid: azure.pid });

    // ARM answers the unmodified SDK client, with a token DefaultAzureCredential takes from the recorded
    // managed-identity endpoint, and refuses one the emulator did not issue.
    for (const name of OTHER_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    for (const [name, value] of Object.entries(managedIdentityEnvironment(azure))) vi.stubEnv(name, value);
    const caCertificate = await readFile(azure.caCertificatePath, 'utf8');
    const clientOptions = sdkClientOptions({ armEndpoint: azure.armEndpoint, caCertificate }, 0);
    const cdn = new CdnManagementClient(new DefaultAzureCredential(), azure.subscriptionId, clientOptions);
    const profiles = [];
    for await (const profile of cdn.profiles.list()) profiles.push(profile);
    expect(profiles).toEqual([]);
    // The Azure side created the hub's resource group: a profile can go in it (ARM refuses a missing group).
    const profile = await cdn.profiles.beginCreateAndWait(
      azure.afdResourceGroup,
      'fd',
      { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } },
      { updateIntervalInMs: 50 },
    );
    expect(profile.provisioningState).toBe('Succeeded');
    const stub = new CdnManagementClient(stubCredential, azure.subscriptionId, clientOptions);
    await expect(stub.profiles.get(azure.afdResourceGroup, 'fd')).rejects.toMatchObject({ statusCode: 401, code: 'InvalidAuthenticationToken' });

    // The member's cloud-provider stand-in gives an internal LoadBalancer Service an address.
    const core = kubeConfigFrom(record.plane?.clusters.find((c) => c.name === 'member-1')?.kubeconfig ?? '').makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'shop' } } });
    await core.createNamespacedService({
      namespace: 'shop',
      body: {
        metadata: { name: 'web', annotations: { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' } },
        spec: { type: 'LoadBalancer', ports: [{ port: 80, targetPort: 8080 }], selector: { app: 'web' } },
      },
    });
    const service = await eventually<V1Service>(
      () => core.readNamespacedService({ name: 'web', namespace: 'shop' }),
      (s) => (s.status?.loadBalancer?.ingress?.length ?? 0) > 0,
    );
    const ip = service.status?.loadBalancer?.ingress?.[0]?.ip ?? '';
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

    // The backend command points the edge's traffic for that address and port at a local backend.
    const mapped = await run(
      tsx,
      [cli, 'backend', '--dir', dir, '--cluster', 'member-1', '--service', 'shop/web', '--port', '80', '--target', '127.0.0.1:8080'],
      { cwd: repoRoot },
    );
    expect(mapped.stderr).toContain(`the edge now sends traffic for ${ip}:80 (shop/web in member-1) to 127.0.0.1:8080`);
    const edgeAddresses = async () =>
      ((await (await fetch(`${azure.adminUrl}/state`)).json()) as { edges: { addresses: { address: string; target: unknown }[] } }).edges.addresses;
    expect(await edgeAddresses()).toContainEqual({ address: `${ip}:80`, target: { host: '127.0.0.1', port: 8080 } });
    // Mapped through the stand-in, a backend also holds for a Service that gets its address only later.
    await core.createNamespacedService({
      namespace: 'shop',
      body: { metadata: { name: 'api' }, spec: { type: 'LoadBalancer', ports: [{ port: 8443 }], selector: { app: 'api' } } },
    });
    await run(tsx, [cli, 'backend', '--dir', dir, '--cluster', 'member-1', '--service', 'shop/api', '--port', '8443', '--target', '127.0.0.1:9443'], {
      cwd: repoRoot,
    });
    const api = await eventually<V1Service>(
      () => core.readNamespacedService({ name: 'api', namespace: 'shop' }),
      (s) => (s.status?.loadBalancer?.ingress?.length ?? 0) > 0,
    );
    const apiAddress = `${api.status?.loadBalancer?.ingress?.[0]?.ip}:8443`;
    expect(await eventually(edgeAddresses, (entries) => entries.some((e) => e.address === apiAddress), 10_000)).toContainEqual({
      address: apiAddress,
      target: { host: '127.0.0.1', port: 9443 },
    });

    const groups = record.processes.map((p) => p.pgid);
    const down = await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot });
    expect(down.stderr).toContain(`stopped the local system in ${dir}`);
    expect(pids.filter(isLive)).toEqual([]);
    expect(groups.flatMap(processGroupMembers)).toEqual([]);
    expect(await exists(dir)).toBe(false);
    // A second down is a no-op.
    expect((await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot })).stderr).toContain('nothing to stop');
  });
});
