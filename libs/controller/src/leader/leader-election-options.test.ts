import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../kube/kube-client.js';
import { resolveLeaderElectionTimings, type LeaderElectionOptions } from './leader-election-options.js';

const kc = new KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
  users: [{ name: 'u' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});
const base: LeaderElectionOptions = { client: new KubeClient(kc), namespace: 'ns', name: 'agent', identity: 'pod-a' };

describe('resolveLeaderElectionTimings', () => {
  it("uses client-go's defaults", () => {
    expect(resolveLeaderElectionTimings(base)).toEqual({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 });
  });

  it('rejects a renew deadline not shorter than the lease, naming both values', () => {
    expect(() => resolveLeaderElectionTimings({ ...base, leaseDurationMs: 5000, renewDeadlineMs: 5000 })).toThrow(
      'leader election ns/agent: leaseDurationMs (5000) must be greater than renewDeadlineMs (5000)',
    );
  });

  it('rejects a retry period too long for the renew deadline', () => {
    expect(() => resolveLeaderElectionTimings({ ...base, renewDeadlineMs: 2000, retryPeriodMs: 2000 })).toThrow(
      'must be greater than 1.2 × retryPeriodMs (2000)',
    );
  });

  it('rejects an empty identity and a sub-second lease', () => {
    expect(() => resolveLeaderElectionTimings({ ...base, identity: '' })).toThrow('identity must not be empty');
    expect(() => resolveLeaderElectionTimings({ ...base, leaseDurationMs: 500 })).toThrow('at least 1000, got 500');
  });
});
