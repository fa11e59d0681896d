import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AGENT_NODE_FLAGS, type AgentName } from '@fleet-gateway/agent-flags';
import { isRunning, type ControlPlaneState } from '@fleet-gateway/control-plane';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from './agents.js';
import type { AzureSideInfo } from './azure-side-info.js';
import { requestThroughEdge } from './sample.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(import.meta.dirname, 'cli.ts');
let dir = '';

afterAll(async () => {
  if (dir) {
    await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot }).catch(() => undefined);
    await rm(path.dirname(dir), { recursive: true, force: true });
  }
});

// The README's first command (make local-up runs this CLI after building both bundles).
describe('the whole system locally (make local-up)', () => {
  it('runs both agents on the sample until the edge answers from both members, prints what to copy, and down leaves nothing', async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'fleet-gateway-whole-')), 'system');
    const up = await run(tsx, [cli, 'up', '--dir', dir], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    const printed = JSON.parse(up.stdout) as { azure: AzureSideInfo; agents: RunningAgent[]; endpointHostname: string };
    expect(printed.agents.map((a) => a.name)).toEqual(['hub-gateway', 'member-discovery-member-1', 'member-discovery-member-2']);
    expect(printed.endpointHostname).toMatch(/\.azurefd\.net$/);
    // Progress for every phase, and the lines to copy at the end.
    expect(up.stderr).toContain('Gateway shop/web: ');
    expect(up.stderr).toContain(`curl -s -H 'Host: ${printed.endpointHostname}' ${printed.azure.edgeUrl}/`);
    expect(up.stderr).toMatch(/export KUBECONFIG=\S+ +# hub /);

    // What the printed curl returns: answers from both members' echo backends, over Private Link.
    const answeredBy = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const { status, answer } = await requestThroughEdge(printed.azure.edgeUrl, printed.endpointHostname);
      expect(status).toBe(200);
      answeredBy.add(answer?.cluster ?? '?');
    }
    expect([...answeredBy].sort()).toEqual(['member-1', 'member-2']);

    // Each agent is its bundle under node after its launch flags, as its image's ENTRYPOINT runs it.
    for (const agent of printed.agents) {
      const flags = AGENT_NODE_FLAGS[path.basename(path.dirname(agent.bundle)) as AgentName];
      const argv = (await readFile(`/proc/${agent.pid}/cmdline`, 'utf8')).split('\0');
      expect(argv.slice(0, 2 + flags.length)).toEqual([process.execPath, ...flags, agent.bundle]);
    }

    const plane = JSON.parse(await readFile(path.join(dir, 'plane/state.json'), 'utf8')) as ControlPlaneState;
    const pids = [plane.etcd.pid, ...plane.clusters.flatMap((c) => c.pids), printed.azure.pid, ...printed.agents.map((a) => a.pid)];
    expect(pids.every(isRunning)).toBe(true);
    await run(tsx, [cli, 'down', '--dir', dir], { cwd: repoRoot });
    const deadline = Date.now() + 15_000;
    while (pids.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(pids.filter(isRunning)).toEqual([]);
  });
});
