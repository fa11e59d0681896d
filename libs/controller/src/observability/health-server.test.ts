import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from './health-server.js';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('health server', () => {
  it('answers readiness from all checks and says which one failed', async () => {
    let synced = false;
    server = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      readiness: [
        { name: 'informers-synced', check: () => (synced ? { ok: true } : { ok: false, message: '1 of 2 synced' }) },
        { name: 'lease', check: async () => ({ ok: true }) },
      ],
    });
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toBe('[-]informers-synced failed: 1 of 2 synced\n[+]lease ok\nreadyz check failed\n');
    synced = true;
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toContain('readyz check passed');
  });

  it('treats a check that throws as failed', async () => {
    server = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      liveness: [
        {
          name: 'broken',
          check: () => {
            throw new Error('boom');
          },
        },
      ],
    });
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('[-]broken failed: boom');
  });

  it('is healthy with no checks, serves metrics, and 404s other paths', async () => {
    const registry = new Registry();
    new Counter({ name: 'test_things_total', help: 'things', registers: [registry] }).inc(3);
    server = await startHealthServer({ host: '127.0.0.1', port: 0, registry });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('test_things_total 3');
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('serves only the probes without a registry, and only /metrics without probes', async () => {
    server = await startHealthServer({ host: '127.0.0.1', port: 0, readiness: [] });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await server.close();
    const registry = new Registry();
    new Counter({ name: 'test_alone_total', help: 'alone', registers: [registry] }).inc();
    server = await startHealthServer({ host: '127.0.0.1', port: 0, registry, probes: false });
    expect(await (await fetch(`${server.url}/metrics`)).text()).toContain('test_alone_total 1');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(404);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(404);
  });
});
