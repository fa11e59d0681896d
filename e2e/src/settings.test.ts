import { describe, expect, it } from 'vitest';
import { readE2eSettings } from './settings.js';

describe('readE2eSettings', () => {
  it('defaults to local mode without Front Door, and never to Azure', () => {
    expect(readE2eSettings({})).toEqual({ ok: true, settings: { mode: 'local', frontDoor: false } });
    expect(readE2eSettings({ ENABLE_AZURE_FRONT_DOOR: 'True' })).toEqual({ ok: true, settings: { mode: 'local', frontDoor: true } });
  });

  it('Azure mode needs upstream’s variables, each checked, and defaults the network setting as upstream does', () => {
    const env = { E2E_MODE: 'azure', AZURE_SUBSCRIPTION_ID: '11111111-2222-3333-4444-555555555555', AZURE_RESOURCE_GROUP: 'fleet-e2e' };
    expect(readE2eSettings(env)).toEqual({
      ok: true,
      settings: {
        mode: 'azure',
        frontDoor: false,
        azure: { subscriptionId: env.AZURE_SUBSCRIPTION_ID, resourceGroup: 'fleet-e2e', networkSetting: 'shared-vnet', location: 'eastus2' },
      },
    });
    expect(readE2eSettings({ E2E_MODE: 'azure', AZURE_NETWORK_SETTING: 'flat' })).toEqual({
      ok: false,
      errors: [
        'AZURE_SUBSCRIPTION_ID has invalid value ""; expected the subscription\'s GUID (E2E_MODE=azure creates resources there, which costs money)',
        'AZURE_RESOURCE_GROUP has invalid value ""; expected a resource group name (1-90 letters, digits, -._())',
        'AZURE_NETWORK_SETTING has invalid value "flat"; expected one of shared-vnet, peered-vnet, dynamic-ip-allocation',
      ],
    });
  });

  it('Azure mode refuses upstream’s network shapes that e2e/azure does not build, naming the one it does', () => {
    const env = { E2E_MODE: 'azure', AZURE_SUBSCRIPTION_ID: '11111111-2222-3333-4444-555555555555', AZURE_RESOURCE_GROUP: 'fleet-e2e' };
    for (const shape of ['peered-vnet', 'dynamic-ip-allocation']) {
      expect(readE2eSettings({ ...env, AZURE_NETWORK_SETTING: shape })).toEqual({
        ok: false,
        errors: [`AZURE_NETWORK_SETTING=${shape} is upstream's, but e2e/azure builds only shared-vnet (the default); unset it or set shared-vnet`],
      });
    }
    expect(readE2eSettings({ ...env, AZURE_NETWORK_SETTING: 'shared-vnet', LOCATION: 'westeurope' })).toMatchObject({
      ok: true,
      settings: { azure: { networkSetting: 'shared-vnet', location: 'westeurope' } },
    });
  });

  it('local mode ignores the Azure variables (they cannot make it create anything)', () => {
    expect(readE2eSettings({ AZURE_SUBSCRIPTION_ID: 'not-a-guid', AZURE_NETWORK_SETTING: 'flat' })).toEqual({
      ok: true,
      settings: { mode: 'local', frontDoor: false },
    });
  });

  it('refuses Traffic Manager at once, and reports every bad value together', () => {
    expect(readE2eSettings({ E2E_MODE: 'cloud', ENABLE_TRAFFIC_MANAGER: 'true', ENABLE_AZURE_FRONT_DOOR: 'yes' })).toEqual({
      ok: false,
      errors: [
        'E2E_MODE has invalid value "cloud"; expected local (the default) or azure',
        'ENABLE_AZURE_FRONT_DOOR has invalid value "yes"; expected true or false',
        'ENABLE_TRAFFIC_MANAGER=true: Traffic Manager is not part of this project (it reconciles Azure Front Door); unset it',
      ],
    });
  });
});
