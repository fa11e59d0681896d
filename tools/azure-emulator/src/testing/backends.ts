import { Agent, createServer, request, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions, TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';

export interface Backend {
  name: string;
  port: number;
  /** What the health probe path answers; change it to make the backend (un)healthy. */
  probeStatus: number;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders; servername?: string }>;
  /** The health probes it received (the prober's requests to /healthz); `servername` is the SNI of an HTTPS backend. */
  probes: Array<{ method: string; host: string | undefined; userAgent: string | undefined; servername?: string }>;
  close(): Promise<void>;
}

/** A certificate for an HTTPS backend: self-signed, valid for the given DNS names only. */
export async function backendCertificate(dnsNames: string[]): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: dnsNames[0] ?? 'backend' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: dnsNames.map((value) => ({ type: 2, value })) }],
  });
  return { key: pems.private, cert: pems.cert };
}

/**
 * A local backend that answers 200 with its name, and `probeStatus` on /healthz; over HTTPS when given a certificate
 * (then it records the SNI each request came with).
 */
export async function startBackend(name: string, tls?: { key: string; cert: string }): Promise<Backend> {
  const backend: Backend = { name, port: 0, probeStatus: 200, requests: [], probes: [], close: async () => undefined };
  const listener: RequestListener = (req, res) => {
    const sni = (req.socket as Partial<TLSSocket>).servername;
    const servername = typeof sni === 'string' ? { servername: sni } : {};
    // A probe is what the edge's prober sends (its User-Agent, as AFD's); a request rewritten to /healthz is traffic.
    if (req.url === '/healthz' && req.headers['user-agent'] === 'Edge Health Probe') {
      backend.probes.push({ method: req.method ?? 'GET', host: req.headers.host, userAgent: req.headers['user-agent'], ...servername });
      res.writeHead(backend.probeStatus).end();
      return;
    }
    backend.requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, ...servername });
    res.writeHead(200, { 'content-type': 'application/json', 'x-backend': name }).end(JSON.stringify({ backend: name }));
  };
  const server = tls === undefined ? createServer(listener) : createHttpsServer(tls, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  backend.port = (server.address() as AddressInfo).port;
  backend.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return backend;
}

export interface EdgeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 32 });

export interface EdgeRequestOptions {
  edge?: number;
  https?: boolean;
  method?: string;
  headers?: Record<string, string>;
}

/** One request to the emulated edge with a given Host, optionally pinned to one simulated edge. */
export function edgeRequest(edgeUrl: string, host: string, path: string, options: EdgeRequestOptions = {}): Promise<EdgeResponse> {
  const url = new URL(path, edgeUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: options.method ?? 'GET',
        headers: {
          ...options.headers,
          host,
          ...(options.edge === undefined ? {} : { 'x-emulator-edge': String(options.edge) }),
          ...(options.https ? { 'x-emulator-protocol': 'https' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * One request to the edge's HTTPS listener, as a browser sends it for `host`: SNI and Host are the host, and the
 * client verifies the certificate against `ca` (the emulator's) for that name.
 */
export function edgeTlsRequest(
  edgeTlsUrl: string,
  host: string,
  path: string,
  ca: string,
  tls: Pick<SecureContextOptions, 'minVersion' | 'maxVersion'> = {},
): Promise<EdgeResponse & { certificateSubject: string }> {
  const url = new URL(path, edgeTlsUrl);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'GET', headers: { host }, servername: host, ca, agent: false, ...tls }, (res) => {
      const subject = String((res.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), certificateSubject: subject }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** How many of `count` requests each origin served (by the edge's x-emulator-origin header), `concurrency` at a time. */
export async function originSplit(edgeUrl: string, host: string, path: string, count: number, concurrency = 16): Promise<Map<string, number>> {
  const split = new Map<string, number>();
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < count) {
      sent += 1;
      const response = await edgeRequest(edgeUrl, host, path);
      const origin = String(response.headers['x-emulator-origin'] ?? `status-${response.status}`);
      split.set(origin, (split.get(origin) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return split;
}
