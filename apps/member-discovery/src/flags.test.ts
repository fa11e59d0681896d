import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_USAGE, parseMemberFlags } from './flags.js';

const SUB = '11111111-2222-3333-4444-555555555555';
const FILE_SUB = '99999999-8888-7777-6666-555555555555';
const TENANT = '66666666-7777-8888-9999-000000000000';
const KUBECONFIG = ['--member-cluster-name', 'member-1', '--hub-kubeconfig', '/etc/hub/kubeconfig'];
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
let dir: string;
let tokenFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'member-flags-'));
  tokenFile = path.join(dir, 'token');
  await writeFile(tokenFile, 'secret-hub-token\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cloudConfig(fields: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `azure-${Object.keys(fields).join('-')}.json`);
  await writeFile(file, JSON.stringify({ aadClientSecret: 'never-shown', ...fields }));
  return file;
}

const errorsOf = (result: ReturnType<typeof parseMemberFlags>) => (result.ok ? [] : result.errors);

describe('parseMemberFlags', () => {
  it('needs the member name and the hub connection, and defaults the feature gates off', () => {
    expect(parseMemberFlags(KUBECONFIG)).toEqual({
      ok: true,
      help: false,
      value: {
        memberClusterName: 'member-1',
        hub: { kind: 'kubeconfig', file: '/etc/hub/kubeconfig' },
        metricsBindAddress: ':8090',
        metricsSecure: true,
        healthProbeBindAddress: ':8091',
        leaderElect: true,
        leaderElectionNamespace: 'fleet-system',
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
        reconcileStallTimeoutMs: 1_800_000,
        logLevel: 'info',
        enablePrivateLinkOriginDiscovery: false,
        approvePrivateLinkConnections: false,
        armRateLimitShare: 0.5,
      },
    });
  });

  it("reaches the hub through upstream's environment: HUB_SERVER_URL, the token file CONFIG_PATH and the base64 CA", () => {
    const environment = {
      MEMBER_CLUSTER_NAME: 'member-2',
      HUB_SERVER_URL: 'https://hub.example.com:443',
      CONFIG_PATH: tokenFile,
      HUB_CERTIFICATE_AUTHORITY: Buffer.from(CA_PEM).toString('base64'),
    };
    expect(parseMemberFlags([], environment)).toMatchObject({
      ok: true,
      value: { memberClusterName: 'member-2', hub: { kind: 'token-file', server: 'https://hub.example.com:443', tokenFile, caPem: CA_PEM } },
    });
    // Flags win over the environment.
    expect(parseMemberFlags(KUBECONFIG, environment)).toMatchObject({ ok: true, value: { memberClusterName: 'member-1', hub: { kind: 'kubeconfig' } } });
    // Without a CA the system's CAs are trusted.
    const { HUB_CERTIFICATE_AUTHORITY: _ca, ...withoutCa } = environment;
    expect(parseMemberFlags([], withoutCa)).toMatchObject({
      ok: true,
      value: { hub: { kind: 'token-file', server: 'https://hub.example.com:443', tokenFile } },
    });
  });

  it('names the variable, its value and what is expected, and never shows the token', async () => {
    const empty = path.join(dir, 'empty-token');
    await writeFile(empty, '\n');
    const missing = path.join(dir, 'missing');
    const bad = parseMemberFlags([], {
      MEMBER_CLUSTER_NAME: 'Member_1',
      HUB_SERVER_URL: 'http://hub:80',
      CONFIG_PATH: missing,
      HUB_CERTIFICATE_AUTHORITY: 'bm90IGEgY2VydGlmaWNhdGUgYXQgYWxs',
    });
    expect(errorsOf(bad)).toEqual([
      'MEMBER_CLUSTER_NAME has invalid value "Member_1"; expected a DNS label such as member-1',
      `HUB_SERVER_URL has invalid value "http://hub:80"; expected the hub API server's https URL such as https://hub.example.com:443`,
      `CONFIG_PATH "${missing}" cannot be read (ENOENT); expected a file holding the hub bearer token`,
      'HUB_CERTIFICATE_AUTHORITY has invalid value "bm90IGEgY2VydGlmaWNhdGUg…"; expected the hub CA certificate as base64 of its PEM',
    ]);
    expect(errorsOf(parseMemberFlags(['--member-cluster-name', 'm'], { HUB_SERVER_URL: 'https://hub', CONFIG_PATH: empty }))).toEqual([
      `CONFIG_PATH "${empty}" is empty; expected a file holding the hub bearer token`,
    ]);
    expect(errorsOf(parseMemberFlags(['--member-cluster-name', 'm'], { HUB_SERVER_URL: 'https://hub' }))).toEqual([
      'CONFIG_PATH must be set with HUB_SERVER_URL; expected the file holding the hub bearer token (the refresh-token sidecar writes it)',
    ]);
    const ok = parseMemberFlags(['--member-cluster-name', 'm'], { HUB_SERVER_URL: 'https://hub', CONFIG_PATH: tokenFile });
    expect(JSON.stringify(ok)).not.toContain('secret-hub-token');
  });

  it('reports every problem at once', () => {
    const result = parseMemberFlags([
      '--member-cluster-name',
      'Member_1',
      '--approve-private-link-connections',
      '--health-probe-bind-address',
      ':99999',
      '--region',
      'East US',
    ]);
    expect(errorsOf(result)).toEqual([
      '--member-cluster-name has invalid value "Member_1"; expected a DNS label such as member-1',
      '--hub-kubeconfig or HUB_SERVER_URL (with CONFIG_PATH) is required: how this member reaches the hub, scoped to fleet-member-<member>',
      '--approve-private-link-connections needs --enable-private-link-origin-discovery',
      '--region has invalid value "East US"; expected an Azure region name such as eastus2',
      '--health-probe-bind-address has invalid value ":99999"; expected [host]:port such as :8081',
    ]);
    expect(errorsOf(parseMemberFlags(['--hub-kubeconfig', 'k']))).toEqual([
      '--member-cluster-name (or MEMBER_CLUSTER_NAME) is required: the Fleet member name, a DNS label',
    ]);
  });

  it('--private-link-approval-hubs: comma-separated hub identities, each checked, only with discovery', () => {
    const on = [...KUBECONFIG, '--enable-private-link-origin-discovery', '--azure-subscription-id', SUB, '--node-resource-group', 'MC_rg'];
    const hubs = `subscription/${SUB}/cluster/hub, subscription/${SUB}/cluster/hub-2`;
    expect(parseMemberFlags([...on, '--private-link-approval-hubs', hubs])).toMatchObject({
      ok: true,
      value: { privateLinkApprovalHubs: [`subscription/${SUB}/cluster/hub`, `subscription/${SUB}/cluster/hub-2`] },
    });
    expect(errorsOf(parseMemberFlags([...on, '--private-link-approval-hubs', `subscription/${SUB}/cluster/hub,hub-2`]))).toEqual([
      '--private-link-approval-hubs: "hub-2" is not a hub identity; expected subscription/<subscription id>/cluster/<hub cluster name>',
    ]);
    expect(errorsOf(parseMemberFlags([...KUBECONFIG, '--private-link-approval-hubs', `subscription/${SUB}/cluster/hub`]))).toEqual([
      '--private-link-approval-hubs needs --enable-private-link-origin-discovery',
    ]);
    expect(parseMemberFlags(on)).not.toHaveProperty('value.privateLinkApprovalHubs');
  });

  it('needs a subscription and the node resource group once discovery is on, from flags or the cloud config', async () => {
    const on = [...KUBECONFIG, '--enable-private-link-origin-discovery'];
    expect(errorsOf(parseMemberFlags(on))).toEqual([
      '--azure-subscription-id (or subscriptionId of --cloud-config) must be configured when Private Link origin discovery is enabled (--enable-private-link-origin-discovery)',
      '--node-resource-group (or resourceGroup of --cloud-config) must be configured when Private Link origin discovery is enabled (--enable-private-link-origin-discovery)',
    ]);
    const flags = parseMemberFlags([
      ...on,
      '--azure-subscription-id',
      SUB,
      '--node-resource-group',
      'MC_rg_member-1_eastus',
      '--approve-private-link-connections',
      '--arm-rate-limit-share',
      '0.2',
    ]);
    expect(flags).toMatchObject({
      ok: true,
      value: {
        enablePrivateLinkOriginDiscovery: true,
        approvePrivateLinkConnections: true,
        azureSubscriptionId: SUB,
        nodeResourceGroup: 'MC_rg_member-1_eastus',
        armRateLimitShare: 0.2,
      },
    });
    const file = await cloudConfig({
      subscriptionId: FILE_SUB,
      tenantId: TENANT,
      cloud: 'AzurePublicCloud',
      resourceGroup: 'MC_file_member-1_westus2',
      location: 'westus2',
    });
    expect(parseMemberFlags([...on, '--cloud-config', file])).toMatchObject({
      ok: true,
      value: {
        azureSubscriptionId: FILE_SUB,
        azureTenantId: TENANT,
        armEndpoint: 'https://management.azure.com',
        nodeResourceGroup: 'MC_file_member-1_westus2',
        region: 'westus2',
      },
    });
    const overridden = parseMemberFlags([
      ...on,
      '--cloud-config',
      file,
      '--node-resource-group',
      'MC_flag',
      '--region',
      'eastus',
      '--azure-subscription-id',
      SUB,
    ]);
    expect(overridden).toMatchObject({ ok: true, value: { azureSubscriptionId: SUB, nodeResourceGroup: 'MC_flag', region: 'eastus' } });
    expect(JSON.stringify(overridden)).not.toContain('never-shown');
  });

  it('once discovery is on, builds exactly the --azure-credential chosen, or names what it lacks', () => {
    const on = [...KUBECONFIG, '--enable-private-link-origin-discovery', '--azure-subscription-id', SUB, '--node-resource-group', 'MC_rg_member-1_eastus'];
    expect(parseMemberFlags([...on, '--azure-client-id', FILE_SUB], { IDENTITY_ENDPOINT: 'http://127.0.0.1:4004/msi/token' })).toMatchObject({
      ok: true,
      value: { azureCredential: { kind: 'managed-identity', clientId: FILE_SUB, tokenEndpoint: 'http://127.0.0.1:4004/msi/token' } },
    });
    const webhook = { AZURE_CLIENT_ID: FILE_SUB, AZURE_TENANT_ID: TENANT, AZURE_FEDERATED_TOKEN_FILE: '/var/run/secrets/azure/tokens/azure-identity-token' };
    expect(parseMemberFlags([...on, '--azure-credential', 'workload-identity'], webhook)).toMatchObject({
      ok: true,
      value: { azureCredential: { kind: 'workload-identity', clientId: FILE_SUB, tenantId: TENANT, tokenFile: webhook.AZURE_FEDERATED_TOKEN_FILE } },
    });
    expect(errorsOf(parseMemberFlags([...on, '--azure-credential', 'workload-identity'], { AZURE_CLIENT_ID: FILE_SUB, AZURE_TENANT_ID: TENANT }))).toEqual([
      '--azure-credential=workload-identity is missing AZURE_FEDERATED_TOKEN_FILE, the service account token the workload identity webhook projects (pod label azure.workload.identity/use: "true")',
    ]);
    expect(errorsOf(parseMemberFlags([...on, '--azure-credential', 'cli']))).toEqual([
      '--azure-credential has invalid value "cli"; expected one of workload-identity, managed-identity',
    ]);
  });

  it('rejects malformed Azure values, naming flag and value', () => {
    const result = parseMemberFlags([...KUBECONFIG, '--node-resource-group', 'rg.', '--azure-tenant-id', 'x', '--arm-rate-limit-share', '0']);
    expect(errorsOf(result).map((e) => e.split(' ')[0])).toEqual(['--node-resource-group', '--azure-tenant-id', '--arm-rate-limit-share']);
  });

  it('takes booleans as charts pass them, and answers --help with every flag it takes', () => {
    expect(parseMemberFlags([...KUBECONFIG, '--enable-private-link-origin-discovery=false', '--leader-elect=false'])).toMatchObject({
      ok: true,
      value: { enablePrivateLinkOriginDiscovery: false, leaderElect: false },
    });
    expect(parseMemberFlags(['--help'])).toEqual({ ok: true, help: true });
    const documented = [...MEMBER_USAGE.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((match) => match[1]);
    expect(documented).toEqual(
      expect.arrayContaining([
        'member-cluster-name',
        'hub-kubeconfig',
        'node-resource-group',
        'region',
        'cloud-config',
        'azure-tenant-id',
        'arm-rate-limit-share',
        'log-level',
      ]),
    );
    for (const flag of documented) {
      const probe = parseMemberFlags([`--${flag}${MEMBER_USAGE.includes(`--${flag}[=true|false]`) ? '=false' : '=x'}`]);
      expect(probe.ok ? '' : probe.errors.join(' '), flag).not.toMatch(/Unknown option/);
    }
    for (const variable of ['HUB_SERVER_URL', 'CONFIG_PATH', 'HUB_CERTIFICATE_AUTHORITY', 'MEMBER_CLUSTER_NAME']) expect(MEMBER_USAGE).toContain(variable);
  });
});
