import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../kube/kube-client.js';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import type { CandidateConfig } from '../test-support/lease-candidate-process.js';
import { eventually } from '../test-support/real-api.js';
import { acquireJitter } from './leader-election-options.js';
import type { Lease } from './lease-record.js';

interface ReportedEvent {
  readonly type: 'ready' | 'started-leading' | 'stopped-leading' | 'new-leader';
  readonly identity: string;
  readonly at?: number;
  readonly from: string;
}

let plane: HubPlane['plane'];
let client: KubeClient;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ({ plane, client } = await startHubPlane());
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await plane?.stop();
});

const timings = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 };
const candidateScript = fileURLToPath(new URL('../test-support/lease-candidate-process.ts', import.meta.url));

function startCandidate(identity: string, events: ReportedEvent[]): ChildProcess {
  const child = fork(candidateScript, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  child.on('message', (message: Omit<ReportedEvent, 'from'>) => events.push({ ...message, from: identity }));
  const config: CandidateConfig = {
    kubeconfigPath: plane.cluster('hub').kubeconfigPath,
    namespace: 'default',
    name: 'two-candidates',
    identity,
    ...timings,
  };
  child.send(config);
  return child;
}

describe('leader election on a Lease', () => {
  it('elects one of two instances, and the other takes over within lease duration + retry period of a crash', async () => {
    const events: ReportedEvent[] = [];
    const candidates = { a: startCandidate('a', events), b: startCandidate('b', events) };
    const leading = await eventually(
      () => events.filter((e) => e.type === 'started-leading'),
      (started) => started.length > 0,
    );
    expect(leading).toHaveLength(1);
    const leader = leading[0]!.from as 'a' | 'b';
    const follower = leader === 'a' ? 'b' : 'a';
    // The follower has seen the leader's lease (it reports the leader as soon as it reads the Lease).
    await eventually(() => events, (all) => all.some((e) => e.from === follower && e.type === 'new-leader'));
    const lease = await client.get<Lease>('/apis/coordination.k8s.io/v1/namespaces/default/leases/two-candidates');
    expect(lease.spec?.holderIdentity).toBe(leader);
    expect(lease.spec?.renewTime).toMatch(/\.\d{6}Z$/);

    candidates[leader].kill('SIGKILL');
    const killedAt = Date.now();
    const takeover = await eventually(
      () => events.find((e) => e.from === follower && e.type === 'started-leading'),
      (e) => e !== undefined,
    );
    expect(takeover).toBeDefined();
    const elapsed = takeover!.at! - killedAt;
    // The follower judges expiry from when it last saw the lease change, which lags the leader's last renewal by
    // at most one of its (jittered) polls; it acquires on the poll after expiry. One second of slack for load.
    const maxPollGap = timings.retryPeriodMs * (1 + acquireJitter);
    expect(elapsed).toBeLessThanOrEqual(timings.leaseDurationMs + 2 * maxPollGap + 1000);
    // …and it did not take a lease that was still valid.
    expect(elapsed).toBeGreaterThanOrEqual(timings.leaseDurationMs - timings.retryPeriodMs - 200);
    expect(events.filter((e) => e.type === 'started-leading')).toHaveLength(2);
  });
});
