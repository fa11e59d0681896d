import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { ManagedProcess } from './processes.js';

export interface TlsClient {
  ca: string;
  cert: string;
  key: string;
}

function probe(url: string, tls?: TlsClient): Promise<number> {
  return new Promise((resolve) => {
    const send = url.startsWith('https:') ? request : httpRequest;
    const req = send(url, { ...(tls ?? {}), timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function lastLines(file: string, count: number): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

/** Polls url until it answers 200; fails early, with the tail of its log, when the process exits first. */
export async function waitReady(process: ManagedProcess, url: string, options: { tls?: TlsClient; timeoutMs: number }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let exited = false;
  void process.exited.then(() => {
    exited = true;
  });
  let delay = 50;
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`${process.name} exited during start-up; last log lines:\n${await lastLines(process.logFile, 20)}`);
    }
    if ((await probe(url, options.tls)) === 200) return;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 500);
  }
  throw new Error(`${process.name} was not ready at ${url} within ${options.timeoutMs} ms; last log lines:\n${await lastLines(process.logFile, 20)}`);
}
