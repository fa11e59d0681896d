import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundleAgent, eventually } from '@fleet-gateway/controller/test-support';
import {
  applyObject,
  armWrites,
  emulatorAfdFlags,
  emulatorAgentEnvironment,
  gatewayBody,
  gatewayPath,
  publishExport,
  routeBody,
  routePath,
  SCOPE,
  startAgentProcess,
  startHubUnderTest,
  whenImported,
  whenProgrammed,
  type HubAgentProcess,
  type HubUnderTest,
} from '@fleet-gateway/gateway-controllers/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LEADER_LEASE } from './hub-agent.js';

// The hub agent as it ships (the bundle, under plain node), on a real API server and the emulator: its liveness when
// an ARM call never ends, and its fence when a paused leader resumes after a standby took its Lease.
let hub: HubUnderTest;
let dir: string;
let bundle: string;
let environment: NodeJS.ProcessEnv;
const agents: HubAgentProcess[] = [];

// Every long-running operation takes 1.5 s: a leader paused after its first write is paused mid-plan.
beforeAll(async () => {
  hub = await startHubUnderTest({ emulator: { lroDelayMs: 1_500 } });
  dir = await mkdtemp(path.join(tmpdir(), 'hub-arm-bounds-'));
  bundle = await bundleAgent('hub-gateway', path.join(dir, 'main.mjs'));
  environment = await emulatorAgentEnvironment(hub.emulator, dir);
}, 120_000);

afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.process.kill('SIGCONT');
    await agent.process.stop();
  }
  hub.emulator.admin.clearFaults();
});

afterAll(async () => {
  await hub?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(options: { leaderElect?: boolean; flags?: readonly string[] } = {}): Promise<HubAgentProcess> {
  const agent = await startAgentProcess({
    kubeconfigPath: hub.plane.cluster('hub').kubeconfigPath,
    bundle,
    environment,
    afdFlags: emulatorAfdFlags(hub.emulator, SCOPE),
    leaderElect: options.leaderElect ?? false,
    flags: options.flags ?? [],
  });
  agents.push(agent);
  return agent;
}

async function probe(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

async function createGateway(name: string): Promise<void> {
  await publishExport(hub.client, { cluster: 'member-1', service: name, publicAddress: '10.9.1.1' });
  await whenImported(hub, name, ['member-1']);
  // The route first: the Gateway's first reconcile then plans the whole graph (profile, then the levels after it), so
  // a leader paused after the profile's write resumes mid-plan.
  await applyObject(hub.client, routePath(name), routeBody(name, name, [{ path: '/', backends: [{ name }] }]));
  await applyObject(hub.client, gatewayPath(name), gatewayBody(name));
}

/** ARM writes the agent counted itself (every attempt, as the emulator counts them). */
async function writesReported(agent: HubAgentProcess): Promise<number> {
  const text = await (await fetch(agent.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('fleet_gateway_arm_requests_total{') && /method="(PUT|PATCH|DELETE|POST)"/.test(line))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/fleet-system/leases/${LEADER_LEASE}`;
const leaseHolder = async () => (await hub.client.get<{ spec?: { holderIdentity?: string } }>(LEASE_PATH).catch(() => undefined))?.spec?.holderIdentity;

describe('the hub agent process at the Azure boundary', { timeout: 180_000 }, () => {
  it('an ARM read that never answers holds the only Gateway reconcile: /healthz fails naming the stalled controller', async () => {
    const agent = await start({ flags: ['--reconcile-stall-timeout=2s'] });
    await eventually(
      () => probe(agent.healthzUrl),
      (r) => r.status === 200,
      30_000,
    );
    hub.emulator.admin.resetCounters();
    hub.emulator.admin.injectFault({ kind: 'hang', method: 'GET', pathPattern: '/profiles/fgw-shop-hung-[0-9a-f]{12}$', count: 1_000 });
    await createGateway('hung');

    await eventually(
      () => hub.emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Cdn/profiles', status: 0 }),
      (n) => n >= 1,
      30_000,
    );
    const unhealthy = await eventually(
      () => probe(agent.healthzUrl),
      (r) => r.status === 503,
      30_000,
    );
    expect(unhealthy.body).toMatch(
      /\[-\]controllers-progress failed: controller gateway: 1 reconcile\(s\) running, the oldest for \d+ s; no reconcile finished in the last \d+ s/,
    );
    expect(unhealthy.body).toContain('healthz check failed');
    expect(armWrites(hub)).toBe(0);
  });

  it('a leader paused past its Lease writes nothing to ARM after it resumes; the standby that took over programs the Gateway', async () => {
    const lease = ['--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=500ms'];
    const first = await start({ leaderElect: true, flags: lease });
    await eventually(leaseHolder, (holder) => holder === first.identity, 30_000);
    const second = await start({ leaderElect: true, flags: lease });
    hub.emulator.admin.resetCounters();

    await createGateway('paused');
    // The profile's PUT went out: the leader is following its operation when it stops.
    await eventually(
      () => armWrites(hub),
      (n) => n >= 1,
      30_000,
    );
    first.process.kill('SIGSTOP');
    await sleep(500);
    const beforePause = armWrites(hub);

    await eventually(leaseHolder, (holder) => holder === second.identity, 30_000);
    await whenProgrammed(hub, 'paused', ['paused'], 60_000);

    first.process.kill('SIGCONT');
    // It finds its Lease gone and exits, as a replica that lost leadership does.
    expect(await first.process.exited).toBe(1);
    const total = armWrites(hub);
    const bySecond = await writesReported(second);
    expect(bySecond).toBeGreaterThan(0);
    expect(total - beforePause - bySecond).toBe(0);
    // It did resume mid-plan and leadership's loss, not chance, stopped its programming: the shutdown that follows it
    // aborts the programming while it follows the profile's operation, else the fence stops the next level.
    const lines = first.process.lines;
    expect(lines.some((l) => l.message === 'lost leadership; stopping all work')).toBe(true);
    const fenced = JSON.stringify(lines).includes("this replica's leader Lease is not valid");
    const stoppedMidPlan = lines.some((l) => l.message === 'observed Azure' && l.name === 'paused' && l.programmed === false);
    expect(fenced || stoppedMidPlan).toBe(true);
  });
});
