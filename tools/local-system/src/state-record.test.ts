import { describe, expect, it } from 'vitest';
import { judgeFolder, recordedPids, type LocalSystemRecord } from './state-record.js';

const record = (overrides: Partial<LocalSystemRecord>): LocalSystemRecord => ({
  status: 'running',
  owner: 10,
  startedAt: '2026-12-01T12:00:00.000Z',
  clusters: ['hub'],
  plane: { workDir: '/d/plane', etcd: { endpoint: 'http://127.0.0.1:1', pid: 20 }, clusters: [{ name: 'hub', server: 's', kubeconfig: 'k', pids: [21, 22] }] },
  processes: [{ name: 'azure-side', pid: 30, pgid: 30, logFile: '/d/azure-side.log', marker: 'azure-side.ts' }],
  ...overrides,
});
const running =
  (...pids: number[]) =>
  (pid: number) =>
    pids.includes(pid);

describe('judgeFolder: a start never reuses data it did not record as its own', () => {
  it('uses an absent or empty folder', () => {
    expect(judgeFolder(undefined, undefined, running())).toEqual({ kind: 'fresh' });
    expect(judgeFolder([], undefined, running())).toEqual({ kind: 'fresh' });
  });

  it('refuses a folder with files but no record (an etcd data folder whose record is lost, or not ours at all)', () => {
    expect(judgeFolder(['plane', 'azure.json'], undefined, running())).toEqual({ kind: 'unrecorded', entries: ['plane', 'azure.json'] });
  });

  it('refuses a recorded system while any recorded process runs, and an up still starting while its owner runs', () => {
    const system = record({});
    expect(judgeFolder(['state.json'], system, running(30))).toEqual({ kind: 'running', record: system });
    expect(judgeFolder(['state.json'], system, running(20))).toEqual({ kind: 'running', record: system });
    const starting = record({ status: 'starting', plane: undefined, processes: [] });
    expect(judgeFolder(['state.json'], starting, running(10))).toEqual({ kind: 'starting', record: starting });
  });

  it('takes a record whose processes or owner are gone as remains to wipe', () => {
    const stopped = record({});
    expect(judgeFolder(['state.json', 'plane'], stopped, running(10))).toEqual({ kind: 'remains', record: stopped });
    const interrupted = record({ status: 'starting', owner: 11 });
    // A start killed outright: its record says "starting", its owner is gone, whatever else still runs.
    expect(judgeFolder(['state.json'], interrupted, running(20, 30))).toEqual({ kind: 'remains', record: interrupted });
  });

  it('names every recorded pid, control plane and managed processes', () => {
    expect(recordedPids(record({}))).toEqual([20, 21, 22, 30]);
    expect(recordedPids(record({ plane: undefined, processes: [] }))).toEqual([]);
  });
});
