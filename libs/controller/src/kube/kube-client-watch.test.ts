import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { KubeConfig } from '@kubernetes/client-node';
import { clientForLocalServer } from '../test-support/local-server-client.js';
import { KubeClient } from './kube-client.js';
import { cutAt } from '../test-support/byte-cuts.js';

// The watch's line and frame framing, against a local HTTP server that sends a stream cut at chosen byte offsets: the API
// server's own chunking cannot be steered, and the framing must hold for any cut.
let server: http.Server;
let client: KubeClient;
let nextStream: Buffer[] = [];
let lastRequest: http.IncomingMessage | undefined;

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    lastRequest = request;
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

async function watchFrames(chunks: Buffer[]): Promise<Buffer[]> {
  nextStream = chunks;
  const frames: Buffer[] = [];
  await client.watchFrames(
    '/api/v1/configmaps',
    {},
    { onFrame: (buf, start, end) => frames.push(Buffer.from(buf.subarray(start, end))) },
    new AbortController().signal,
  );
  return frames;
}

const lengthDelimited = (frames: Buffer[]): Buffer =>
  Buffer.concat(
    frames.flatMap((frame) => [Buffer.from([frame.length >>> 24, (frame.length >>> 16) & 0xff, (frame.length >>> 8) & 0xff, frame.length & 0xff]), frame]),
  );

async function watchLines(chunks: Buffer[]): Promise<string[]> {
  nextStream = chunks;
  const lines: string[] = [];
  await client.watch('/api/v1/configmaps', {}, { onLine: (line) => lines.push(line) }, new AbortController().signal);
  return lines;
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

describe('KubeClient.watchFrames length-delimited framing', () => {
  it('delivers each frame whole however the bytes are cut: inside the length prefix, across several chunks, empty frames', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (payloads, offsets) => {
          const frames = payloads.map((payload) => Buffer.from(payload));
          expect(await watchFrames(cutAt(lengthDelimited(frames), offsets))).toEqual(frames);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('joins a large frame sent one byte of its prefix at a time and the rest in many chunks', async () => {
    const frame = Buffer.alloc(70_000, 7);
    const stream = lengthDelimited([frame, Buffer.from('tail')]);
    const offsets = [1, 2, 3, ...Array.from({ length: 40 }, (_, i) => 4 + Math.floor(((i + 1) * 70_000) / 41))];
    expect(await watchFrames(cutAt(stream, offsets))).toEqual([frame, Buffer.from('tail')]);
  });
});

describe('KubeClient watch connections', () => {
  const kubeConfigFor = (cluster: { server: string; proxyUrl?: string }, user: { username?: string; password?: string; impersonateUser?: string }) => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'local', skipTLSVerify: true, ...cluster }],
      users: [{ name: 'someone', ...user }],
      contexts: [{ name: 'local', cluster: 'local', user: 'someone' }],
      currentContext: 'local',
    });
    return kubeConfig;
  };
  const event = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'cm' } } });

  it("sends the kubeconfig's basic auth and impersonation, as node:http would, on the watch's own connection", async () => {
    nextStream = [Buffer.from(`${event}\n`)];
    const server = `http://127.0.0.1:${serverAddress().port}`;
    const withPassword = new KubeClient(kubeConfigFor({ server }, { username: 'ann', password: 's3cret', impersonateUser: 'bob' }));
    const lines: string[] = [];
    await withPassword.watch('/api/v1/configmaps', { labelSelector: 'app=a b' }, { onLine: (line) => lines.push(line) }, new AbortController().signal);
    expect(lines).toEqual([event]);
    expect(lastRequest?.headers.authorization).toBe(`Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
    expect(lastRequest?.headers['impersonate-user']).toBe('bob');
    expect(lastRequest?.url).toBe('/api/v1/configmaps?labelSelector=app%3Da+b&watch=true');
  });

  it("goes through the cluster's proxy-url when one is set, not straight to the server", async () => {
    // client-node's proxy agents tunnel with CONNECT. The proxy sends every tunnel to the local watch server, and the
    // server the kubeconfig names is not listening: the watch only works through the proxy.
    nextStream = [Buffer.from(`${event}\n`)];
    const tunnels: string[] = [];
    const proxy = http.createServer();
    proxy.on('connect', (request: http.IncomingMessage, client: Duplex) => {
      tunnels.push(request.url ?? '');
      const upstream = net.connect(serverAddress().port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const nobody = `127.0.0.1:${await closedPort()}`;
      const viaProxy = new KubeClient(kubeConfigFor({ server: `http://${nobody}`, proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }, {}));
      const lines: string[] = [];
      await viaProxy.watch('/api/v1/configmaps', {}, { onLine: (line) => lines.push(line) }, new AbortController().signal);
      expect(lines).toEqual([event]);
      expect(tunnels).toEqual([nobody]);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

function serverAddress(): AddressInfo {
  return server.address() as AddressInfo;
}

/** A port that was free a moment ago: nothing listens on it. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
