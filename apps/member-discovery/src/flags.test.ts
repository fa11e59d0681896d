import { describe, expect, it } from 'vitest';
import { MEMBER_USAGE, parseMemberFlags } from './flags.js';

describe('parseMemberFlags', () => {
  it('needs the member name and the hub kubeconfig, and defaults the feature gates off', () => {
    expect(parseMemberFlags(['--member-cluster-name', 'member-1', '--hub-kubeconfig', '/etc/hub/kubeconfig'])).toEqual({
      ok: true,
      help: false,
      value: {
        memberClusterName: 'member-1',
        hubKubeconfig: '/etc/hub/kubeconfig',
        metricsBindAddress: ':8090',
        healthProbeBindAddress: ':8091',
        leaderElect: true,
        leaderElectionNamespace: 'fleet-system',
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
        logLevel: 'info',
        enablePrivateLinkOriginDiscovery: false,
        approvePrivateLinkConnections: false,
      },
    });
  });

  it('reports every problem at once', () => {
    const result = parseMemberFlags(['--member-cluster-name', 'Member_1', '--approve-private-link-connections', '--health-probe-bind-address', ':99999']);
    expect(result.ok ? [] : result.errors).toEqual([
      '--member-cluster-name has invalid value "Member_1"; expected a DNS label such as member-1',
      '--hub-kubeconfig is required (a kubeconfig for the hub, scoped to fleet-member-<member>)',
      '--approve-private-link-connections needs --enable-private-link-origin-discovery',
      '--health-probe-bind-address has invalid value ":99999"; expected [host]:port such as :8081',
    ]);
  });

  it('needs an Azure subscription once discovery is on', () => {
    const base = ['--member-cluster-name', 'm', '--hub-kubeconfig', 'k', '--enable-private-link-origin-discovery'];
    const missing = parseMemberFlags(base);
    expect(missing.ok ? [] : missing.errors).toEqual([
      '--azure-subscription-id must be configured when Private Link origin discovery is enabled (--enable-private-link-origin-discovery)',
    ]);
    const ok = parseMemberFlags([...base, '--azure-subscription-id', '11111111-2222-3333-4444-555555555555', '--approve-private-link-connections']);
    expect(ok).toMatchObject({ ok: true, value: { enablePrivateLinkOriginDiscovery: true, approvePrivateLinkConnections: true } });
  });

  it('takes booleans as charts pass them, and answers --help with every flag', () => {
    const base = ['--member-cluster-name', 'm', '--hub-kubeconfig', 'k'];
    expect(parseMemberFlags([...base, '--enable-private-link-origin-discovery=false', '--leader-elect=false'])).toMatchObject({
      ok: true,
      value: { enablePrivateLinkOriginDiscovery: false, leaderElect: false },
    });
    expect(parseMemberFlags(['--help'])).toEqual({ ok: true, help: true });
    for (const flag of ['member-cluster-name', 'hub-kubeconfig', 'enable-private-link-origin-discovery', 'approve-private-link-connections', 'log-level']) {
      expect(MEMBER_USAGE).toContain(`--${flag}`);
    }
  });
});
