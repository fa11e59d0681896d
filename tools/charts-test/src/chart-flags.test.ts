import { describe, expect, it } from 'vitest';
// The agents' own flag parsers: what the charts pass must be what the agents accept.
import { parseHubFlags } from '../../../apps/hub-gateway/src/flags.js';
import { parseMemberFlags } from '../../../apps/member-discovery/src/flags.js';
import { render } from './helm.js';
import { containerOf, only } from './manifests.js';

// What the workload identity webhook sets in a pod labelled azure.workload.identity/use (the everything values enable it).
const WORKLOAD_IDENTITY_ENVIRONMENT = {
  AZURE_CLIENT_ID: '00000000-0000-4000-8000-0000000000c3',
  AZURE_TENANT_ID: '00000000-0000-4000-8000-0000000000b2',
  AZURE_FEDERATED_TOKEN_FILE: '/var/run/secrets/azure/tokens/azure-identity-token',
  AZURE_AUTHORITY_HOST: 'https://login.microsoftonline.com/',
};

describe("the charts' container args, read by the agents' flag parsers", () => {
  it('the hub accepts its default args: AFD off, leader election in fleet-system', async () => {
    const args = containerOf(only(await render('hub-gateway'), 'Deployment')).args ?? [];
    const parsed = parseHubFlags(args);
    expect(parsed).toMatchObject({ ok: true, value: { enableAfd: false, leaderElect: true, leaderElectionNamespace: 'fleet-system', healthProbeBindAddress: ':8083', metricsBindAddress: ':8082' } });
  });

  it('the hub accepts its everything-on args with the values they came from', async () => {
    const args = containerOf(only(await render('hub-gateway', ['hub-everything.yaml']), 'Deployment')).args ?? [];
    const parsed = parseHubFlags(args, WORKLOAD_IDENTITY_ENVIRONMENT);
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        enableAfd: true,
        afdResourceGroup: 'rg-frontdoor',
        hubName: 'hub-eastus2',
        defaultAfdSku: 'Premium_AzureFrontDoor',
        armRateLimitShare: 0.25,
        azureSubscriptionId: '00000000-0000-4000-8000-0000000000a1',
        leaderElectionNamespace: 'fleet-leases',
        leaseDurationMs: 30_000,
        logLevel: 'debug',
        azureCredential: { kind: 'workload-identity', clientId: '00000000-0000-4000-8000-0000000000c3', tenantId: '00000000-0000-4000-8000-0000000000b2' },
      },
    });
  });

  // Discovery on, with the hub kubeconfig Secret (upstream's environment mode would have the agent read its token file).
  const DISCOVERY = ['enablePrivateLinkOriginDiscovery=true', 'azure.subscriptionId=00000000-0000-4000-8000-0000000000a1', 'azure.nodeResourceGroup=MC_fleet_member-1_eastus2', 'azure.region=eastus2'];

  it('the member accepts its discovery args with the workload identity the webhook sets up', async () => {
    const set = [...DISCOVERY, 'workloadIdentity.enabled=true', 'workloadIdentity.clientId=00000000-0000-4000-8000-0000000000c3'];
    const args = containerOf(only(await render('member-discovery', ['member-minimal.yaml'], set), 'Deployment')).args ?? [];
    const parsed = parseMemberFlags(args, WORKLOAD_IDENTITY_ENVIRONMENT);
    expect(parsed).toMatchObject({
      ok: true,
      value: { enablePrivateLinkOriginDiscovery: true, nodeResourceGroup: 'MC_fleet_member-1_eastus2', region: 'eastus2', azureCredential: { kind: 'workload-identity', tokenFile: WORKLOAD_IDENTITY_ENVIRONMENT.AZURE_FEDERATED_TOKEN_FILE } },
    });
  });

  it('the member with a user-assigned managed identity instead', async () => {
    const clientId = '00000000-0000-4000-8000-0000000000d4';
    const set = [...DISCOVERY, `managedIdentity.clientId=${clientId}`];
    const args = containerOf(only(await render('member-discovery', ['member-minimal.yaml'], set), 'Deployment')).args ?? [];
    expect(parseMemberFlags(args, {})).toMatchObject({ ok: true, value: { azureCredential: { kind: 'managed-identity', clientId } } });
  });

  it('the member accepts its args with a hub kubeconfig Secret', async () => {
    const args = containerOf(only(await render('member-discovery', ['member-minimal.yaml']), 'Deployment')).args ?? [];
    const parsed = parseMemberFlags(args);
    expect(parsed).toMatchObject({ ok: true, value: { memberClusterName: 'member-1', leaderElectionNamespace: 'fleet-system' } });
  });
});
