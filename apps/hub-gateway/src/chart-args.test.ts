import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseHubFlags } from './flags.js';

/**
 * The container args of the hub chart's golden renderings (tools/charts-test proves them equal to `helm template`'s
 * output), read by this agent's own flag parser: what the chart passes must be what the agent accepts.
 */
function chartArgs(golden: string): string[] {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../../tools/charts-test/golden', golden), 'utf8');
  const deployment = parseAllDocuments(text)
    .map((document) => document.toJS() as { kind?: string; spec?: { template: { spec: { containers: { args?: string[] }[] } } } })
    .find((manifest) => manifest?.kind === 'Deployment');
  return deployment?.spec?.template.spec.containers[0]?.args ?? [];
}

// What the workload identity webhook sets in a pod labelled azure.workload.identity/use (the everything values enable it).
const WORKLOAD_IDENTITY_ENVIRONMENT = {
  AZURE_CLIENT_ID: '00000000-0000-4000-8000-0000000000c3',
  AZURE_TENANT_ID: '00000000-0000-4000-8000-0000000000b2',
  AZURE_FEDERATED_TOKEN_FILE: '/var/run/secrets/azure/tokens/azure-identity-token',
};

describe("the hub chart's container args, read by the agent's flag parser", () => {
  it('accepts the default args: AFD off, leader election in fleet-system', () => {
    expect(parseHubFlags(chartArgs('hub-gateway.default.yaml'))).toMatchObject({
      ok: true,
      value: {
        enableAfd: false,
        leaderElect: true,
        leaderElectionNamespace: 'fleet-system',
        healthProbeBindAddress: ':8083',
        metricsBindAddress: ':8082',
        metricsSecure: true,
      },
    });
  });

  it('accepts the everything-on args with the values they came from', () => {
    expect(parseHubFlags(chartArgs('hub-gateway.everything.yaml'), WORKLOAD_IDENTITY_ENVIRONMENT)).toMatchObject({
      ok: true,
      value: {
        enableAfd: true,
        afdResourceGroup: 'rg-frontdoor',
        hubName: 'hub-eastus2',
        defaultAfdSku: 'Premium_AzureFrontDoor',
        armRateLimitShare: 0.25,
        driftCheckPeriodMs: 1_200_000,
        azureSubscriptionId: '00000000-0000-4000-8000-0000000000a1',
        leaderElectionNamespace: 'fleet-leases',
        leaseDurationMs: 30_000,
        logLevel: 'debug',
        metricsSecure: true,
        metricsCertDir: '/etc/fleet-gateway/metrics-certs',
        azureCredential: { kind: 'workload-identity', clientId: '00000000-0000-4000-8000-0000000000c3', tenantId: '00000000-0000-4000-8000-0000000000b2' },
      },
    });
  });
});
