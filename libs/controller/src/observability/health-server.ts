import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { MetricsAccess } from '../metrics-access/metrics-access-review.js';
import type { ServingCertificate } from '../metrics-access/serving-certificate.js';

export interface CheckResult {
  readonly ok: boolean;
  readonly message?: string;
}

/** A named probe; readiness is the conjunction of all of them. */
export interface HealthCheck {
  readonly name: string;
  readonly check: () => CheckResult | Promise<CheckResult>;
}

export interface HealthServerOptions {
  /** Bind address; pods use 0.0.0.0 so the kubelet can probe, tests 127.0.0.1. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Serves /metrics from it; absent, there is no /metrics here (the agent serves it on its own address). */
  readonly registry?: Registry;
  /** Serve /healthz and /readyz (default true); false makes a metrics-only server. */
  readonly probes?: boolean;
  readonly liveness?: readonly HealthCheck[];
  readonly readiness?: readonly HealthCheck[];
  /** Serve HTTPS with this certificate (and its rotations) instead of HTTP. */
  readonly tls?: ServingCertificate;
  /** Who may read /metrics (MetricsAccessReview.decide); absent, anyone who reaches the address. Probes are never asked. */
  readonly metricsAccess?: (authorization: string | undefined, method: string, path: string) => Promise<MetricsAccess>;
}

export interface HealthServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `/healthz` (liveness), `/readyz` (readiness: caches synced, lease held when leading, …) and `/metrics`, or
 * only the probes, or only `/metrics` (an agent's separate metrics address).
 * Probe bodies list every check as `[+]name ok` / `[-]name failed: why`, like the API server's own `?verbose`.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response, options).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  };
  const { tls } = options;
  const tlsServer = tls ? createTlsServer({ ...tls.initial, minVersion: 'TLSv1.2' }, listener) : undefined;
  const server = tlsServer ?? createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // New connections get a rotated certificate; open ones keep theirs.
  const stopWatching = tls?.watch?.((pair) => tlsServer?.setSecureContext({ ...pair, minVersion: 'TLSv1.2' }));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stopWatching?.();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: HealthServerOptions): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
    response.end('method not allowed\n');
    return;
  }
  if (path === '/metrics' && options.registry) {
    const access = await options.metricsAccess?.(request.headers.authorization, request.method, path);
    if (access && !access.allowed) {
      response.writeHead(access.status, { 'content-type': 'text/plain', ...(access.status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
      response.end(`${access.message}\n`);
      return;
    }
    const body = await options.registry.metrics();
    response.writeHead(200, { 'content-type': options.registry.contentType });
    response.end(body);
    return;
  }
  const probes = options.probes ?? true;
  const checks = !probes ? undefined : path === '/healthz' ? (options.liveness ?? []) : path === '/readyz' ? (options.readiness ?? []) : undefined;
  if (checks === undefined) {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found\n');
    return;
  }
  const results = await Promise.all(checks.map(async (c) => ({ name: c.name, ...(await runCheck(c)) })));
  const ok = results.every((r) => r.ok);
  const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: ${r.message ?? 'not ready'}`));
  response.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' });
  response.end([...lines, ok ? `${path.slice(1)} check passed` : `${path.slice(1)} check failed`, ''].join('\n'));
}

async function runCheck(check: HealthCheck): Promise<CheckResult> {
  try {
    return await check.check();
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
