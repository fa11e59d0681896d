import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { freePorts } from './ports.js';
import { startProcess, type ManagedProcess } from './processes.js';
import { waitReady } from './wait-ready.js';

export interface EtcdServer {
  endpoint: string;
  process: ManagedProcess;
  /** Compacts the whole keyspace at its current revision, so older resourceVersions answer 410 Gone. */
  compact(): Promise<number>;
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  if (!res.ok) throw new Error(`etcd ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export async function startEtcd(binary: string, dir: string, timeoutMs: number, detached: boolean): Promise<EtcdServer> {
  await mkdir(dir, { recursive: true });
  const [clientPort, peerPort] = await freePorts(2);
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const proc = startProcess(
    'etcd',
    binary,
    [
      '--name=default',
      `--data-dir=${path.join(dir, 'data')}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=default=${peer}`,
      // Test data need not survive a power cut; fsync is what makes etcd slow on a small disk.
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ],
    path.join(dir, 'etcd.log'),
    { detached },
  );
  await waitReady(proc, `${endpoint}/health`, { timeoutMs });
  return {
    endpoint,
    process: proc,
    async compact() {
      // The JSON gateway wants base64 keys; "AA==" is the key "\0", i.e. the start of the keyspace.
      const range = await postJson<{ header: { revision: string } }>(`${endpoint}/v3/kv/range`, { key: 'AA==', limit: 1 });
      const revision = Number(range.header.revision);
      await postJson(`${endpoint}/v3/kv/compaction`, { revision, physical: true });
      return revision;
    },
  };
}
