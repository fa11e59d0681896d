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
    await eventually(
      () => events,
      (all) => all.some((e) => e.from === follower && e.type === 'new-leader'),
    );
    const leasePath = '/apis/coordination.k8s.io/v1/namespaces/default/leases/two-candidates';
    const beforeKill = await client.get<Lease>(leasePath);
    expect(beforeKill.spec?.holderIdentity).toBe(leader);
    expect(beforeKill.spec?.renewTime).toMatch(/\.\d{6}Z$/);

    candidates[leader].kill('SIGKILL');
    const killedAt = Date.now();
    await eventually(
      () => events.find((e) => e.from === follower && e.type === 'started-leading'),
      (e) => e !== undefined,
    );
    const afterTakeover = await client.get<Lease>(leasePath);
    expect(afterTakeover.spec).toMatchObject({ holderIdentity: follower, leaseTransitions: 1 });
    const acquiredAt = Date.parse(afterTakeover.spec!.acquireTime!);
    // The follower judges expiry from when it last saw the lease change, which lags the leader's last renewal by
    // at most one of its (jittered) polls; it acquires on the poll after expiry. One second of slack for load.
    const maxPollGap = timings.retryPeriodMs * (1 + acquireJitter);
    expect(acquiredAt - killedAt).toBeLessThanOrEqual(timings.leaseDurationMs + 2 * maxPollGap + 1000);
    // …and it did not take a lease that was still valid: the leader's last renewal was no earlier than the one
    // `beforeKill` shows, and the follower waits a whole lease duration after seeing it (less its read latency, at
    // most a retry period: it stamps an observation with the time its read started).
    expect(acquiredAt - Date.parse(beforeKill.spec!.renewTime!)).toBeGreaterThanOrEqual(timings.leaseDurationMs - timings.retryPeriodMs);
    expect(events.filter((e) => e.type === 'started-leading')).toHaveLength(2);
  });
});
