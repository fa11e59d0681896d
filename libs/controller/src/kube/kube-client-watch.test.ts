import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientForLocalServer } from '../test-support/local-server-client.js';
import type { KubeClient } from './kube-client.js';

// The watch's line framing, against a local HTTP server that sends a stream cut at chosen byte offsets: the API
// server's own chunking cannot be steered, and the framing must hold for any cut.
let server: http.Server;
let client: KubeClient;
let nextStream: Buffer[] = [];

beforeAll(async () => {
  server = http.createServer(async (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    for (const chunk of nextStream) {
      response.write(chunk);
      // Give each chunk its own read on the client side.
      await sleep(1);
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = clientForLocalServer(server);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function watchLines(chunks: Buffer[]): Promise<string[]> {
  nextStream = chunks;
  const lines: string[] = [];
  await client.watch('/api/v1/configmaps', {}, { onLine: (line) => lines.push(line) }, new AbortController().signal);
  return lines;
}

function cutAt(bytes: Buffer, offsets: number[]): Buffer[] {
  const cuts = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...cuts].map((from, i) => bytes.subarray(from, cuts[i] ?? bytes.length)).filter((c) => c.length > 0);
}

describe('KubeClient.watch line framing', () => {
  it('delivers each line whole however the bytes are cut: inside a UTF-8 character, across several chunks, blank lines skipped', async () => {
    const value = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '"', '\\', ' '), maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), async (values, offsets, blanks) => {
        const events = values.map((v, i) => JSON.stringify({ type: 'ADDED', object: { metadata: { name: `cm-${i}` }, data: { v } } }));
        const stream = Buffer.from(events.join(blanks ? '\n\n \n' : '\n') + '\n', 'utf8');
        const lines = await watchLines(cutAt(stream, offsets));
        expect(lines).toEqual(events);
      }),
      { numRuns: 40 },
    );
  });

  it('delivers a line cut into many small chunks once, joined', async () => {
    const event = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'large' }, data: { v: 'x€'.repeat(2000) } } });
    const stream = Buffer.from(`${event}\n`, 'utf8');
    const offsets = Array.from({ length: 50 }, (_, i) => Math.floor(((i + 1) * stream.length) / 51));
    expect(await watchLines(cutAt(stream, offsets))).toEqual([event]);
  });
});
