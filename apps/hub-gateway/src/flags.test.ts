import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_USAGE, parseHubFlags } from './flags.js';

const SUB = '11111111-2222-3333-4444-555555555555';
const FILE_SUB = '99999999-8888-7777-6666-555555555555';
const TENANT = '66666666-7777-8888-9999-000000000000';
const ENABLED = ['--enable-afd', '--afd-resource-group', 'rg-fleet', '--azure-subscription-id', SUB, '--hub-name', 'hub-east'];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hub-flags-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cloudConfig(fields: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `azure-${Object.keys(fields).join('-')}.json`);
  await writeFile(file, JSON.stringify({ aadClientSecret: 'never-shown', ...fields }));
  return file;
}

describe('parseHubFlags', () => {
  it('defaults to the feature gate off, leader election on, upstream ports', () => {
    expect(parseHubFlags([])).toEqual({
      ok: true,
      help: false,
      value: {
        metricsBindAddress: ':8082',
        metricsSecure: true,
        healthProbeBindAddress: ':8083',
        leaderElect: true,
        leaderElectionNamespace: 'fleet-system',
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
        reconcileStallTimeoutMs: 1_800_000,
        logLevel: 'info',
        enableAfd: false,
        defaultAfdSku: 'Standard_AzureFrontDoor',
        armRateLimitShare: 0.5,
        afdProfileQuota: 500,
      },
    });
  });

  it('accepts a complete AFD configuration', () => {
    const result = parseHubFlags([
      ...ENABLED,
      '--default-afd-sku',
      'Premium_AzureFrontDoor',
      '--no-leader-elect',
      '--arm-endpoint',
      'https://127.0.0.1:8443',
      '--arm-rate-limit-share',
      '0.25',
      '--log-level',
      'debug',
    ]);
    expect(result).toMatchObject({
      ok: true,
      value: {
        enableAfd: true,
        afdResourceGroup: 'rg-fleet',
        azureSubscriptionId: SUB,
        hubName: 'hub-east',
        defaultAfdSku: 'Premium_AzureFrontDoor',
        leaderElect: false,
        armEndpoint: 'https://127.0.0.1:8443',
        armRateLimitShare: 0.25,
        logLevel: 'debug',
      },
    });
  });

  it('with --enable-afd, builds exactly the --azure-credential chosen from the flags and the environment, or names what it lacks', async () => {
    expect(parseHubFlags(ENABLED)).toMatchObject({ ok: true, value: { azureCredential: { kind: 'managed-identity' } } });
    const webhook = { AZURE_CLIENT_ID: SUB, AZURE_TENANT_ID: FILE_SUB, AZURE_FEDERATED_TOKEN_FILE: '/var/run/secrets/azure/tokens/azure-identity-token' };
    const file = await cloudConfig({ tenantId: TENANT });
    expect(parseHubFlags([...ENABLED, '--azure-credential=workload-identity', '--cloud-config', file], webhook)).toMatchObject({
      ok: true,
      value: { azureCredential: { kind: 'workload-identity', clientId: SUB, tenantId: TENANT, tokenFile: webhook.AZURE_FEDERATED_TOKEN_FILE } },
    });
    const { AZURE_FEDERATED_TOKEN_FILE: _, ...noTokenFile } = webhook;
    expect(parseHubFlags([...ENABLED, '--azure-credential=workload-identity'], noTokenFile)).toEqual({
      ok: false,
      errors: [
        '--azure-credential=workload-identity is missing AZURE_FEDERATED_TOKEN_FILE, the service account token the workload identity webhook projects (pod label azure.workload.identity/use: "true")',
      ],
    });
    expect(parseHubFlags([...ENABLED, '--azure-credential=managed-identity'], webhook)).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^--azure-credential=managed-identity cannot be used with AZURE_FEDERATED_TOKEN_FILE set/)],
    });
    // Without --enable-afd no credential is built, so nothing of it is required.
    expect(parseHubFlags(['--azure-credential=workload-identity'])).toMatchObject({ ok: true, value: { enableAfd: false } });
  });

  it('takes booleans as upstream charts pass them: --flag=true|false', () => {
    expect(parseHubFlags(['--enable-afd=false', '--leader-elect=false'])).toMatchObject({ ok: true, value: { enableAfd: false, leaderElect: false } });
    expect(parseHubFlags(['--enable-afd=true', '--afd-resource-group', 'rg', '--azure-subscription-id', SUB, '--hub-name', 'hub'])).toMatchObject({
      ok: true,
      value: { enableAfd: true },
    });
    expect(parseHubFlags(['--enable-afd=on'])).toEqual({ ok: false, errors: ['--enable-afd has invalid value "on"; expected true or false'] });
  });

  it('reads subscription, tenant and cloud from --cloud-config; explicit flags override the file', async () => {
    const file = await cloudConfig({ subscriptionId: FILE_SUB, tenantId: TENANT, cloud: 'AzureChinaCloud' });
    const fromFile = parseHubFlags(['--enable-afd', '--afd-resource-group', 'rg', '--hub-name', 'hub', '--cloud-config', file]);
    expect(fromFile).toMatchObject({
      ok: true,
      value: { azureSubscriptionId: FILE_SUB, azureTenantId: TENANT, armEndpoint: 'https://management.chinacloudapi.cn' },
    });
    const overridden = parseHubFlags([...ENABLED, '--cloud-config', file, '--arm-endpoint', 'https://127.0.0.1:8443']);
    expect(overridden).toMatchObject({ ok: true, value: { azureSubscriptionId: SUB, azureTenantId: TENANT, armEndpoint: 'https://127.0.0.1:8443' } });
  });

  it('names a cloud config that cannot be read or is wrong, without showing its secrets', async () => {
    const missing = path.join(dir, 'missing.json');
    expect(parseHubFlags(['--cloud-config', missing])).toEqual({
      ok: false,
      errors: [`--cloud-config "${missing}" cannot be read (ENOENT); expected a readable AKS azure.json`],
    });
    const wrong = await cloudConfig({ subscriptionId: 'not-a-guid' });
    const result = parseHubFlags(['--cloud-config', wrong]);
    expect(result).toEqual({ ok: false, errors: [`--cloud-config "${wrong}": field subscriptionId has invalid value "not-a-guid"; expected a GUID`] });
    expect(JSON.stringify(result)).not.toContain('never-shown');
  });

  it('reports every missing or invalid value together, naming flag, value and expected form', () => {
    const result = parseHubFlags([
      '--enable-afd',
      '--default-afd-sku',
      'Basic',
      '--metrics-bind-address',
      'nowhere',
      '--arm-rate-limit-share',
      '1.5',
      '--azure-tenant-id',
      'x',
    ]);
    expect(result).toEqual({
      ok: false,
      errors: [
        '--default-afd-sku has unsupported value "Basic"; expected one of Standard_AzureFrontDoor, Premium_AzureFrontDoor',
        '--afd-resource-group must be configured when Azure Front Door reconciliation is enabled (--enable-afd)',
        '--azure-subscription-id must be configured when Azure Front Door reconciliation is enabled (--enable-afd), by the flag or --cloud-config',
        '--hub-name must be configured when Azure Front Door reconciliation is enabled (--enable-afd): it identifies this hub in the ownership tags',
        '--azure-tenant-id has invalid value "x"; expected a GUID such as 00000000-0000-0000-0000-000000000000',
        '--arm-rate-limit-share has invalid value "1.5"; expected a fraction in (0, 1] such as 0.5',
        '--metrics-bind-address has invalid value "nowhere"; expected [host]:port such as :8080',
      ],
    });
  });

  it('rejects malformed ids, names, endpoints and unknown flags', () => {
    const bad = parseHubFlags(['--afd-resource-group', 'rg.', '--azure-subscription-id', 'abc', '--arm-endpoint', 'http://x/y', '--hub-name', 'Hub_1']);
    expect(bad.ok ? [] : bad.errors.map((e) => e.split(' ')[0])).toEqual(['--afd-resource-group', '--hub-name', '--azure-subscription-id', '--arm-endpoint']);
    const unknown = parseHubFlags(['--enable-afdd']);
    expect(unknown.ok ? '' : unknown.errors[0]).toContain("'--enable-afdd'");
  });

  it("takes an AFD profile quota up to AFD's 500, which is the default", () => {
    expect(parseHubFlags(ENABLED)).toMatchObject({ ok: true, value: { afdProfileQuota: 500 } });
    expect(parseHubFlags([...ENABLED, '--afd-profile-quota', '40'])).toMatchObject({ ok: true, value: { afdProfileQuota: 40 } });
    for (const value of ['0', '501', '1.5', 'many']) {
      expect(parseHubFlags([...ENABLED, '--afd-profile-quota', value])).toEqual({
        ok: false,
        errors: [`--afd-profile-quota has invalid value "${value}"; expected a whole number from 1 to 500`],
      });
    }
  });

  it('takes the drift check period as auto (the default: no fixed period) or a positive duration', () => {
    const auto = parseHubFlags(ENABLED);
    expect(auto.ok && !auto.help && auto.value.driftCheckPeriodMs).toBeUndefined();
    expect(parseHubFlags([...ENABLED, '--drift-check-period', 'auto'])).toEqual(auto);
    expect(parseHubFlags([...ENABLED, '--drift-check-period', '10m'])).toMatchObject({ ok: true, value: { driftCheckPeriodMs: 600_000 } });
    expect(parseHubFlags([...ENABLED, '--drift-check-period=1h30m'])).toMatchObject({ ok: true, value: { driftCheckPeriodMs: 5_400_000 } });
    for (const value of ['0s', '10', 'never', '']) {
      expect(parseHubFlags([...ENABLED, '--drift-check-period', value])).toEqual({
        ok: false,
        errors: [`--drift-check-period has invalid value "${value}"; expected auto or a positive duration such as 30m or 90s`],
      });
    }
  });

  it('answers --help with a text that documents every flag the parser takes', () => {
    expect(parseHubFlags(['--help'])).toEqual({ ok: true, help: true });
    const documented = [...HUB_USAGE.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((match) => match[1]);
    expect(documented).toEqual(
      expect.arrayContaining([
        'enable-afd',
        'afd-resource-group',
        'hub-name',
        'cloud-config',
        'azure-tenant-id',
        'arm-rate-limit-share',
        'drift-check-period',
        'log-level',
        'leader-elect',
        'help',
      ]),
    );
    // Every documented flag is accepted (booleans also as --flag=false), so the text and the parser agree.
    for (const flag of documented) {
      const probe = parseHubFlags([`--${flag}${HUB_USAGE.includes(`--${flag}[=true|false]`) ? '=false' : '=x'}`]);
      expect(probe.ok ? '' : probe.errors.join(' '), flag).not.toMatch(/Unknown option/);
    }
  });
});
