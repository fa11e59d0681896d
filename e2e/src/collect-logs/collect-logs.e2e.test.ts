import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RESOURCES } from '@fleet-gateway/api-types';
import type { StateDump } from '@fleet-gateway/azure-emulator';
import { objectPath } from '@fleet-gateway/controller';
import { afterAll, expect, it } from 'vitest';
import { collectLogs } from '../e2e-commands.js';
import { apply, read, until } from '../kube-helpers.js';
import { frontDoorOf, scenario } from '../scenario.js';
import { E2E_MEMBERS } from '../system-under-test.js';

const NAMESPACE = 'e2e-logs';

type LogLine = { level?: string; message?: string; kind?: string; name?: string; reconcileId?: string };

const linesOf = (text: string): LogLine[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);

scenario('logs collected on failure (collectLogs, against the running system)', ['front-door', 'emulator'], (system) => {
  let parent = '';
  afterAll(async () => {
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it("copies the hub agent's and both member agents' JSON logs and the emulator's state holding a Gateway's profile", async () => {
    for (const member of E2E_MEMBERS) await apply(system.members[member], new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    await until(
      () => read<{ status?: { clusters?: unknown[] } }>(system.hub, objectPath(RESOURCES.ServiceImport, 'logged', NAMESPACE)),
      (si) => (si?.status?.clusters ?? []).length === 2,
    );
    const frontDoor = await until(
      () => frontDoorOf(system, 'e2e-logs', 'logged'),
      (found) => found !== undefined,
    );
    const profile = frontDoor?.profile.name ?? '';

    parent = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-e2e-logs-'));
    const target = await collectLogs(system.dir, parent);
    expect(path.dirname(target)).toBe(parent);
    expect(path.basename(target)).toMatch(/^logs-\d{4}-\d{2}-\d{2}T/);
    const files = await readdir(target);

    // Every agent's log, as JSON lines (one object per line, with a level and a message).
    expect(system.agents.map((a) => a.name).sort()).toEqual(['hub-gateway', 'member-discovery-member-1', 'member-discovery-member-2']);
    const logs: Record<string, LogLine[]> = {};
    for (const agent of system.agents) {
      expect(files).toContain(path.basename(agent.logFile));
      const lines = linesOf(await readFile(path.join(target, path.basename(agent.logFile)), 'utf8'));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.filter((l) => typeof l.level !== 'string' || typeof l.message !== 'string')).toEqual([]);
      logs[agent.name] = lines;
    }
    // Each names its reconciles of what was just made (every line of a reconcile carries its id, kind and name).
    const reconciled = (agent: string, kind: string) => logs[agent]?.some((l) => l.kind === kind && l.name === 'logged' && typeof l.reconcileId === 'string');
    expect(reconciled('hub-gateway', 'Gateway')).toBe(true);
    for (const member of E2E_MEMBERS) expect(reconciled(`member-discovery-${member}`, 'ServiceExport')).toBe(true);
    // The emulator process's own log is there too.
    expect(files).toContain('azure-side.log');

    // The emulator's state parses and holds the profile the hub made for that Gateway.
    expect(files).toContain('emulator-state.json');
    const state = JSON.parse(await readFile(path.join(target, 'emulator-state.json'), 'utf8')) as StateDump;
    const profiles = state.resources.filter((r) => r.type.toLowerCase() === 'microsoft.cdn/profiles');
    expect(profiles.map((r) => r.id.split('/').at(-1))).toContain(profile);
  });
});
