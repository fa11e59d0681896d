import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzureSide } from './azure-side-process.js';
import { isLive, processGroupMembers, type ManagedProcessRecord } from './managed-process.js';
import { processesNaming } from './testing/processes-naming.js';

const run = promisify(execFile);
let parent = '';
beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), `fleet-gateway-local-${process.pid}-`));
});
afterAll(() => rm(parent, { recursive: true, force: true }));

const portAnswers = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('the Azure side as a managed process', () => {
  it('is stopped with its whole process group when it does not come up in time: no emulator survives', async () => {
    const dir = await mkdtemp(path.join(parent, 'timeout-'));
    // azure.json.tmp as a named pipe nobody reads: the Azure side serves, says it is ready, and then blocks opening
    // it, so it never reports ready — a start-up timeout, however long its start takes on a busy machine.
    await run('mkfifo', [path.join(dir, 'azure.json.tmp')]);
    const lines: string[] = [];
    const seen: { pid: number; pgid: number }[] = [];
    const start = startAzureSide({
      dir,
      members: [],
      timeoutMs: 20_000,
      log: (line) => {
        lines.push(line);
        if (line.includes('Azure side ready')) void processesNaming(dir).then((p) => seen.push(...p));
      },
    });
    await expect(start).rejects.toThrow(/the Azure side did not come up within 20 s; see .*azure-side\.log/);
    const arm = /serves ARM at (\S+),/.exec(lines.join('\n'))?.[1];
    expect(arm).toBeDefined();
    expect(seen.length).toBeGreaterThan(0);
    for (const { pid, pgid } of seen) {
      expect(isLive(pid)).toBe(false);
      expect(processGroupMembers(pgid)).toEqual([]);
    }
    // No process of the Azure side is left (its ARM port is not checked here: on a busy machine another test's
    // server can be given the freed port).
    expect(await processesNaming(dir)).toEqual([]);
  });

  it('prints its progress, serves, and its stop ends the real process and its group', async () => {
    const dir = await mkdtemp(path.join(parent, 'stop-'));
    const lines: string[] = [];
    const { process: azure, info } = await startAzureSide({ dir, members: [], timeoutMs: 60_000, log: (line) => lines.push(line) });
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/^starting the Azure side/), 'azure side: starting the Azure emulator…', 'azure side: Azure side ready']),
    );
    const record: ManagedProcessRecord = azure.record;
    // The recorded pid is the process that runs azure-side.ts itself (no tsx wrapper in between) and leads its group.
    expect(info.pid).toBe(record.pid);
    expect(record.pgid).toBe(record.pid);
    expect(await portAnswers(info.armEndpoint)).toBe(true);
    await azure.stop();
    expect(isLive(record.pid)).toBe(false);
    expect(processGroupMembers(record.pgid)).toEqual([]);
    expect(await portAnswers(info.armEndpoint)).toBe(false);
    // It stopped on SIGTERM, cleanly: it removed its azure.json.
    await expect(access(path.join(dir, 'azure.json'))).rejects.toThrow();
  });
});
