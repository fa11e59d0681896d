import { describe, expect, it } from 'vitest';
import { readCloudConfig } from './cloud-config.js';

const SUB = '11111111-2222-3333-4444-555555555555';
const TENANT = '66666666-7777-8888-9999-000000000000';
const aks = (fields: Record<string, unknown>) => JSON.stringify({ resourceGroup: 'rg', aadClientSecret: 's3cret-value', ...fields });

describe('readCloudConfig', () => {
  it('reads subscription, tenant and the cloud as its ARM endpoint, case-insensitively as cloud-provider-azure does', () => {
    expect(readCloudConfig('/etc/kubernetes/azure.json', aks({ cloud: 'AzurePublicCloud', subscriptionId: SUB, tenantId: TENANT }))).toEqual({
      ok: true,
      config: { subscriptionId: SUB, tenantId: TENANT, armEndpoint: 'https://management.azure.com', resourceGroup: 'rg' },
    });
    expect(readCloudConfig('f', aks({ cloud: 'azurechinacloud' }))).toEqual({
      ok: true,
      config: { armEndpoint: 'https://management.chinacloudapi.cn', resourceGroup: 'rg' },
    });
    expect(readCloudConfig('f', aks({ cloud: 'AzureUSGovernmentCloud' }))).toMatchObject({ config: { armEndpoint: 'https://management.usgovcloudapi.net' } });
    expect(readCloudConfig('f', aks({ resourceGroup: '' }))).toEqual({ ok: true, config: {} });
  });

  it('reads the node resource group and the location the member agent needs', () => {
    expect(readCloudConfig('f', aks({ resourceGroup: 'MC_fleet_member-1_eastus2', location: 'eastus2' }))).toEqual({
      ok: true,
      config: { resourceGroup: 'MC_fleet_member-1_eastus2', location: 'eastus2' },
    });
    expect(readCloudConfig('/etc/azure.json', aks({ resourceGroup: 'rg.', location: 'East US' }))).toEqual({
      ok: false,
      errors: [
        '--cloud-config "/etc/azure.json": field resourceGroup has invalid value "rg."; expected an Azure resource group name',
        '--cloud-config "/etc/azure.json": field location has invalid value "East US"; expected an Azure region name such as eastus2',
      ],
    });
  });

  it('names the file and the field, and never echoes a secret', () => {
    const bad = readCloudConfig('/etc/azure.json', aks({ cloud: 'AzureStackCloud', subscriptionId: 'abc', tenantId: 42 }));
    expect(bad).toEqual({
      ok: false,
      errors: [
        '--cloud-config "/etc/azure.json": field tenantId must be a string',
        '--cloud-config "/etc/azure.json": field subscriptionId has invalid value "abc"; expected a GUID',
        '--cloud-config "/etc/azure.json": field cloud has unsupported value "AzureStackCloud"; expected one of AzurePublicCloud, AzureChinaCloud, AzureUSGovernmentCloud (or pass --arm-endpoint)',
      ],
    });
    expect(JSON.stringify(bad)).not.toContain('s3cret-value');
    const notJson = readCloudConfig('/etc/azure.json', '{"aadClientSecret": "s3cret-value",');
    expect(notJson).toEqual({ ok: false, errors: ['--cloud-config "/etc/azure.json" is not valid JSON; expected an AKS azure.json'] });
    expect(JSON.stringify(notJson)).not.toContain('s3cret-value');
    expect(readCloudConfig('f', '[1]')).toEqual({ ok: false, errors: ['--cloud-config "f" holds no JSON object; expected an AKS azure.json'] });
  });
});
