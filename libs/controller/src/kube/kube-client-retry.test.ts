import http from 'node:http';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { ControllerMetrics } from '../observability/controller-metrics.js';
import { isKubeRequestFailure, KubeApiError } from './kube-api-error.js';
import { clientForLocalServer } from '../test-support/local-server-client.js';
import type { KubeClient, KubeClientOptions } from './kube-client.js';

interface Answer {
  readonly status: number;
  readonly retryAfter?: string;
  readonly body?: string;
}

interface Received {
  readonly method: string;
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: string;
  readonly at: number;
}

const throttled = (retryAfter?: string): Answer => ({
  status: 429,
  ...(retryAfter === undefined ? {} : { retryAfter }),
  body: JSON.stringify({ kind: 'Status', reason: 'TooManyRequests', message: 'Too many requests, please try again later.' }),
});
const ok = (object: unknown = { kind: 'ConfigMap', metadata: { name: 'a' } }): Answer => ({ status: 200, body: JSON.stringify(object) });

/**
 * A local HTTP server standing in for an API server that sheds requests: it answers the n-th request with
 * `answers[n]` (the last one for every request after) and records what it received.
 */
class ScriptedApiServer {
  readonly received: Received[] = [];
  private readonly server: http.Server;

  constructor(private readonly answers: readonly Answer[]) {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answer = this.answers[Math.min(this.received.length, this.answers.length - 1)]!;
        this.received.push({
          method: request.method ?? '',
          url: request.url ?? '',
          contentType: request.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
          at: performance.now(),
        });
        response.writeHead(answer.status, {
          'content-type': 'application/json',
          ...(answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter }),
        });
        response.end(answer.body ?? '');
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  client(options: KubeClientOptions = {}): KubeClient {
    return clientForLocalServer(this.server, options);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let server: ScriptedApiServer | undefined;
const serve = async (...answers: Answer[]) => (server = await new ScriptedApiServer(answers).start());
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const PATH = '/api/v1/namespaces/default/configmaps/a';

describe('KubeClient retries a throttled request', () => {
  it('resends a 429 after its Retry-After (1 s) and returns the answer that followed: two requests', async () => {
    const api = await serve(throttled('1'), ok());
    const metrics = new ControllerMetrics(new Registry());
    const client = api.client({ observer: metrics.kubeClientObserver('hub') });
    await expect(client.get(PATH)).resolves.toEqual({ kind: 'ConfigMap', metadata: { name: 'a' } });
    expect(api.received.map((r) => r.method)).toEqual(['GET', 'GET']);
    // Timer resolution allows the wake-up a millisecond early, never a meaningful amount.
    expect(api.received[1]!.at - api.received[0]!.at).toBeGreaterThanOrEqual(990);
    const text = await metrics.registry.metrics();
    expect(text).toContain('kube_client_request_retries_total{client="hub",reason="throttled"} 1');
    expect(text).toContain('kube_client_request_retries_total{client="hub",reason="server-error"} 0');
  });

  it('gives up on a persistent 429 after maxRetries resends, with the KubeApiError of the 429', async () => {
    const api = await serve(throttled('0'));
    const error = await api
      .client({ maxRetries: 3 })
      .get(PATH)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toMatchObject({ statusCode: 429, reason: 'TooManyRequests', method: 'GET', path: PATH });
    expect(api.received).toHaveLength(4);
  });

  it('resends at most 10 times by default, as client-go does', async () => {
    const api = await serve(throttled('0'));
    await expect(api.client().delete(PATH)).rejects.toMatchObject({ statusCode: 429 });
    expect(api.received).toHaveLength(11);
  });

  it('stops waiting as soon as the caller aborts, rejects with an AbortError and sends nothing more', async () => {
    const api = await serve(throttled('5'), ok());
    const controller = new AbortController();
    const started = performance.now();
    // The client reports the retry once it has the 429 and is about to wait: abort 100 ms into that wait.
    const client = api.client({ observer: { retried: () => setTimeout(() => controller.abort(), 100) } });
    const error = await client.get(PATH, undefined, controller.signal).catch((e: unknown) => e);
    // Seconds of slack against the 5 s Retry-After: an abort that did not cut the wait short would take 5 s.
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(error).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR' });
    expect(isKubeRequestFailure(error)).toBe(true);
    expect(api.received).toHaveLength(1);
  });

  it('does not wait past the request timeout: the caller gets the 429 at once', async () => {
    const api = await serve(throttled('1'), ok());
    const error = await api
      .client({ requestTimeoutMs: 500 })
      .get(PATH)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 429 });
    expect(api.received).toHaveLength(1);
  });

  it('cuts a long Retry-After to maxRetryDelayMs', async () => {
    const api = await serve(throttled('30'), ok());
    const started = performance.now();
    await expect(api.client({ maxRetryDelayMs: 100 }).get(PATH)).resolves.toMatchObject({ kind: 'ConfigMap' });
    expect(api.received).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it.each([
    ['POST', (client: KubeClient, body: unknown) => client.create('/api/v1/namespaces/default/configmaps', body), 'application/json'],
    ['PATCH', (client: KubeClient, body: unknown) => client.patch(PATH, body, 'merge'), 'application/merge-patch+json'],
  ] as const)('resends a %s body intact, with its content type', async (method, send, contentType) => {
    const api = await serve(throttled('0'), ok());
    const body = { metadata: { name: 'a', labels: { team: 'shop', note: 'ünïcode ✓' } }, data: { key: 'x'.repeat(10_000) } };
    await send(api.client(), body);
    expect(api.received.map((r) => r.method)).toEqual([method, method]);
    expect(api.received[1]!.body).toBe(api.received[0]!.body);
    for (const received of api.received) {
      expect(received.contentType).toBe(contentType);
      expect(JSON.parse(received.body)).toEqual(body);
    }
  });

  it('does not resend a 500 without Retry-After, nor a 4xx other than 429', async () => {
    const api = await serve({ status: 500, body: '{"kind":"Status","reason":"InternalError","message":"boom"}' }, ok());
    await expect(api.client().get(PATH)).rejects.toMatchObject({ statusCode: 500, reason: 'InternalError' });
    expect(api.received).toHaveLength(1);
    await server?.stop();
    const refused = await serve({ status: 403, retryAfter: '0', body: '{"kind":"Status","reason":"Forbidden","message":"no"}' }, ok());
    await expect(refused.client().get(PATH)).rejects.toMatchObject({ statusCode: 403 });
    expect(refused.received).toHaveLength(1);
  });

  it('resends a 5xx that carries Retry-After, and counts it as a server error', async () => {
    const api = await serve({ status: 503, retryAfter: '0', body: 'unavailable' }, ok());
    const metrics = new ControllerMetrics(new Registry());
    await expect(api.client({ observer: metrics.kubeClientObserver('member') }).get(PATH)).resolves.toMatchObject({ kind: 'ConfigMap' });
    expect(api.received).toHaveLength(2);
    expect(await metrics.registry.metrics()).toContain('kube_client_request_retries_total{client="member",reason="server-error"} 1');
  });

  it('retries a throttled watch open before the watch starts: onOpen once, then the stream', async () => {
    const api = await serve(throttled('0'), { status: 200, body: '{"type":"ADDED","object":{}}\n{"type":"BOOKMARK","object":{}}\n' });
    const events: string[] = [];
    await api
      .client()
      .watch(
        '/api/v1/configmaps',
        { resourceVersion: '5' },
        { onOpen: () => events.push('open'), onLine: (line) => events.push(line) },
        new AbortController().signal,
      );
    expect(events).toEqual(['open', '{"type":"ADDED","object":{}}', '{"type":"BOOKMARK","object":{}}']);
    expect(api.received).toHaveLength(2);
    for (const received of api.received) expect(received.url).toBe('/api/v1/configmaps?resourceVersion=5&watch=true');
  });

  it('gives up on a watch throttled beyond maxRetries with the KubeApiError of the 429, never opened', async () => {
    const api = await serve(throttled('0'));
    const opened: boolean[] = [];
    const error = await api
      .client({ maxRetries: 2 })
      .watch('/api/v1/configmaps', {}, { onOpen: () => opened.push(true), onLine: () => {} }, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 429, method: 'WATCH' });
    expect(opened).toEqual([]);
    expect(api.received).toHaveLength(3);
  });
});
