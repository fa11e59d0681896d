import { describe, expect, it } from 'vitest';
import { parseHubFlags } from './flags.js';

const SUB = '11111111-2222-3333-4444-555555555555';

describe('parseHubFlags', () => {
  it('defaults to the feature gate off, leader election on, upstream ports', () => {
    expect(parseHubFlags([])).toEqual({
      ok: true,
      value: {
        metricsBindAddress: ':8082',
        healthProbeBindAddress: ':8083',
        leaderElect: true,
        leaderElectionNamespace: 'fleet-system',
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
        enableAfd: false,
        defaultAfdSku: 'Standard_AzureFrontDoor',
      },
    });
  });

  it('accepts a complete AFD configuration', () => {
    const result = parseHubFlags(['--enable-afd', '--afd-resource-group', 'rg-fleet', '--azure-subscription-id', SUB, '--default-afd-sku', 'Premium_AzureFrontDoor', '--no-leader-elect', '--arm-endpoint', 'https://127.0.0.1:8443']);
    expect(result).toMatchObject({ ok: true, value: { enableAfd: true, afdResourceGroup: 'rg-fleet', azureSubscriptionId: SUB, defaultAfdSku: 'Premium_AzureFrontDoor', leaderElect: false, armEndpoint: 'https://127.0.0.1:8443' } });
  });

  it('reports every missing or invalid value together, naming flag, value and expected form', () => {
    const result = parseHubFlags(['--enable-afd', '--default-afd-sku', 'Basic', '--metrics-bind-address', 'nowhere']);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      '--default-afd-sku has unsupported value "Basic"; expected one of Standard_AzureFrontDoor, Premium_AzureFrontDoor',
      '--afd-resource-group must be configured when Azure Front Door reconciliation is enabled (--enable-afd)',
      '--azure-subscription-id must be configured when Azure Front Door reconciliation is enabled (--enable-afd)',
      '--metrics-bind-address has invalid value "nowhere"; expected [host]:port such as :8080',
    ]);
  });

  it('rejects malformed ids, endpoints and unknown flags', () => {
    const bad = parseHubFlags(['--afd-resource-group', 'rg.', '--azure-subscription-id', 'abc', '--arm-endpoint', 'http://x/y']);
    expect(bad.ok ? [] : bad.errors.map((e) => e.split(' ')[0])).toEqual(['--afd-resource-group', '--azure-subscription-id', '--arm-endpoint']);
    const unknown = parseHubFlags(['--enable-afdd']);
    expect(unknown.ok ? '' : unknown.errors[0]).toContain("'--enable-afdd'");
  });
});
