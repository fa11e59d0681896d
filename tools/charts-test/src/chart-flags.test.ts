import { describe, expect, it } from 'vitest';
// The agents' own flag parsers: what the charts pass must be what the agents accept.
import { parseHubFlags } from '../../../apps/hub-gateway/src/flags.js';
import { parseMemberFlags } from '../../../apps/member-discovery/src/flags.js';
import { render } from './helm.js';
import { containerOf, only } from './manifests.js';

// The cloud config file exists only in the pod (a mounted Secret); the parser reads it, so it is left out here.
const NO_CLOUD_CONFIG = ['azure.cloudConfigSecret='];

describe("the charts' container args, read by the agents' flag parsers", () => {
  it('the hub accepts its default args: AFD off, leader election in fleet-system', async () => {
    const args = containerOf(only(await render('hub-gateway'), 'Deployment')).args ?? [];
    const parsed = parseHubFlags(args);
    expect(parsed).toMatchObject({ ok: true, value: { enableAfd: false, leaderElect: true, leaderElectionNamespace: 'fleet-system', healthProbeBindAddress: ':8083', metricsBindAddress: ':8082', metricsSecure: true } });
  });

  it('the hub accepts its everything-on args with the values they came from', async () => {
    const args = containerOf(only(await render('hub-gateway', ['hub-everything.yaml'], NO_CLOUD_CONFIG), 'Deployment')).args ?? [];
    const parsed = parseHubFlags(args);
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
        metricsSecure: true,
        metricsCertDir: '/etc/fleet-gateway/metrics-certs',
      },
    });
  });

  it('both accept metrics.secure=false: plain /metrics', async () => {
    const hub = containerOf(only(await render('hub-gateway', [], ['metrics.secure=false']), 'Deployment')).args ?? [];
    expect(parseHubFlags(hub)).toMatchObject({ ok: true, value: { metricsSecure: false } });
    const member = containerOf(only(await render('member-discovery', ['member-minimal.yaml'], ['metrics.secure=false']), 'Deployment')).args ?? [];
    expect(parseMemberFlags(member)).toMatchObject({ ok: true, value: { metricsSecure: false } });
  });

  it('the member accepts its args with a hub kubeconfig Secret', async () => {
    const args = containerOf(only(await render('member-discovery', ['member-minimal.yaml']), 'Deployment')).args ?? [];
    const parsed = parseMemberFlags(args);
    expect(parsed).toMatchObject({ ok: true, value: { memberClusterName: 'member-1', leaderElectionNamespace: 'fleet-system' } });
  });
});
