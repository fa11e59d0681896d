import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processGroupMembers, startManagedProcess, stopManagedProcesses } from './managed-process.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), `fleet-gateway-local-${process.pid}-`));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return check();
}

// A shell that ignores SIGTERM and has a child (which inherits that), as a wrapper with a real process under it.
const STUBBORN = 'trap "" TERM; sleep 300 & echo started; wait';

describe('managed processes', () => {
  it('runs in its own process group and is stopped with everything in it, SIGKILL after the grace period', async () => {
    const logFile = path.join(dir, 'stubborn.log');
    const started = startManagedProcess({
      name: 'stubborn',
      command: '/bin/sh',
      args: ['-c', STUBBORN, 'managed-process-test'],
      logFile,
      marker: 'managed-process-test',
    });
    const { pid, pgid } = started.record;
    expect(pgid).toBe(pid);
    expect(await waitFor(() => processGroupMembers(pgid).length === 2)).toBe(true);
    expect(await readFile(logFile, 'utf8')).toContain('started');
    const begun = Date.now();
    await started.stop(500);
    expect(Date.now() - begun).toBeGreaterThanOrEqual(500);
    expect(processGroupMembers(pgid)).toEqual([]);
  });

  it('leaves a group alone when no process in it carries the recorded marker (a reused pid)', async () => {
    const started = startManagedProcess({
      name: 'other',
      command: '/bin/sh',
      args: ['-c', 'sleep 300', 'some-other-process'],
      logFile: path.join(dir, 'other.log'),
      marker: 'some-other-process',
    });
    const stopped = await stopManagedProcesses([{ ...started.record, marker: 'not-this-one' }], 100);
    expect(stopped).toEqual([]);
    expect(processGroupMembers(started.record.pgid)).not.toEqual([]);
    await started.stop(100);
    expect(processGroupMembers(started.record.pgid)).toEqual([]);
  });
});
