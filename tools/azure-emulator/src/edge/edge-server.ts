import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { listen, type RunningServer } from '../arm/arm-server.js';
import { neverResolves, type AddressMap } from './address-map.js';
import type { EdgeFleet } from './edge-fleet.js';
import { errorPage, newAzureRef, type EdgeErrorKind } from './error-pages.js';
import type { HealthProber } from './health-prober.js';
import { selectOrigin } from './origin-selection.js';
import { enforceOriginCertificateName, originTlsOptions, type OriginTlsTarget } from './origin-tls.js';
import { originRequestPath } from './origin-path.js';
import { matchRoute } from './path-match.js';
import { applyHeaderEdits, type ForwardingProtocol, type HeaderEdit } from './rule-actions.js';
import { evaluateRules, type RuleDecision } from './rules-engine.js';
import type { EdgeCertificates } from './edge-tls.js';
import { hostKeyFor, type HostEntry, type OriginEntry } from './routing-table.js';

export interface EdgeDependencies {
  fleet: EdgeFleet;
  prober: HealthProber;
  addresses: AddressMap;
  latencyMs: (origin: OriginEntry) => number;
  random: () => number;
  onRequest: (edgeIndex: number, status: number) => void;
}

/** Header a test sets to pin a request to one simulated edge. */
export const EDGE_HEADER = 'x-emulator-edge';
/** Header a client of the plain-HTTP listener sets to say it spoke HTTPS to the edge (the HTTPS listener needs none). */
export const PROTOCOL_HEADER = 'x-emulator-protocol';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', EDGE_HEADER, PROTOCOL_HEADER];

/** The data plane: a plain-HTTP reverse proxy on 127.0.0.1 that serves what the simulated edges have applied. */
export async function startEdgeServer(dependencies: EdgeDependencies, port: number): Promise<RunningServer> {
  const server = createServer({ keepAlive: true }, (request, response) => serve(request, response, dependencies));
  return listen(server, port, 'http');
}

/** The same data plane over HTTPS: the certificate by SNI, TLS 1.2 at least (AFD's minimum since March 2025). */
export async function startEdgeTlsServer(dependencies: EdgeDependencies, certificates: EdgeCertificates, port: number): Promise<RunningServer> {
  const server = createHttpsServer({ keepAlive: true, SNICallback: certificates.sniCallback, minVersion: 'TLSv1.2' }, (request, response) =>
    serve(request, response, dependencies),
  );
  return listen(server, port, 'https');
}

function serve(request: IncomingMessage, response: ServerResponse, dependencies: EdgeDependencies): void {
  const azureRef = newAzureRef();
  const pinned = Number(request.headers[EDGE_HEADER]);
  const edge = dependencies.fleet.pick(Number.isInteger(pinned) ? pinned : undefined);
  const respond = (status: number, headers: OutgoingHttpHeaders, body?: string): void => {
    response.writeHead(status, { ...headers, 'x-azure-ref': azureRef, [EDGE_HEADER]: String(edge.index) });
    response.end(body);
    dependencies.onRequest(edge.index, status);
  };
  const fail = (kind: EdgeErrorKind): void => {
    const page = errorPage(kind, azureRef);
    respond(page.status, { 'content-type': 'text/html; charset=utf-8', 'x-cache': 'CONFIG_NOCACHE' }, page.body);
  };
  const host = String(request.headers.host ?? '')
    .replace(/:\d+$/, '')
    .toLowerCase();
  const hostKey = hostKeyFor(edge.table, host);
  const entry = hostKey === undefined ? undefined : edge.table.hosts.get(hostKey);
  if (entry === undefined) return fail('not-found');
  if (!entry.endpointEnabled) return fail('endpoint-disabled');
  const encrypted = (request.socket as TLSSocket).encrypted === true;
  const protocol = encrypted || String(request.headers[PROTOCOL_HEADER] ?? '').toLowerCase() === 'https' ? 'Https' : 'Http';
  const url = new URL(request.url ?? '/', 'http://edge');
  const match = matchRoute(entry.routes, protocol, url.pathname);
  if (match === undefined) return fail('not-found');
  if (match.redirectToHttps) return respond(307, { location: `https://${host}${url.pathname}${url.search}` });
  const { route } = match;
  const decision: RuleDecision | undefined =
    route.rules.length === 0
      ? undefined
      : evaluateRules(
          route.rules,
          { method: request.method ?? 'GET', scheme: protocol, host, path: url.pathname, query: url.search.slice(1), headers: request.headers },
          match.prefixLength,
        );
  if (decision?.redirect !== undefined) {
    const headers: OutgoingHttpHeaders = { location: decision.redirect.location };
    applyHeaderEdits(headers, decision.responseHeaders);
    return respond(decision.redirect.status, headers);
  }
  const group = edge.table.originGroups.get(decision?.originGroupKey ?? route.originGroupKey);
  const selection =
    group === undefined
      ? { reason: 'no-enabled-origin' as const }
      : selectOrigin(group, {
          isHealthy: (originKey) => dependencies.prober.isHealthy(group.key, originKey),
          latencyMs: dependencies.latencyMs,
          random: dependencies.random,
        });
  if (selection.origin === undefined) return fail('no-origin');
  forward(
    {
      request,
      response,
      entry,
      forwardingProtocol: decision?.forwardingProtocol ?? route.forwardingProtocol,
      path: originRequestPath(decision?.path ?? url.pathname, match, route.originPath),
      requestHeaders: decision?.requestHeaders ?? [],
      responseHeaders: decision?.responseHeaders ?? [],
      origin: selection.origin,
      protocol,
      host,
      url,
      azureRef,
      edgeIndex: edge.index,
    },
    dependencies,
    fail,
  );
}

interface Forwarding {
  request: IncomingMessage;
  response: ServerResponse;
  entry: HostEntry;
  forwardingProtocol: ForwardingProtocol;
  /** The path the origin receives: after the rules' rewrites and the route's originPath. */
  path: string;
  requestHeaders: readonly HeaderEdit[];
  responseHeaders: readonly HeaderEdit[];
  origin: OriginEntry;
  protocol: 'Http' | 'Https';
  host: string;
  url: URL;
  azureRef: string;
  edgeIndex: number;
}

function forward(job: Forwarding, dependencies: EdgeDependencies, fail: (kind: EdgeErrorKind) => void): void {
  const { request, response, origin } = job;
  const https = job.forwardingProtocol === 'HttpsOnly' || (job.forwardingProtocol === 'MatchRequest' && job.protocol === 'Https');
  const target = dependencies.addresses.resolve(origin.hostName, https ? origin.httpsPort : origin.httpPort);
  if (neverResolves(target.host)) {
    fail('origin-unreachable');
    return;
  }
  const headers: OutgoingHttpHeaders = { ...request.headers };
  for (const name of HOP_BY_HOP) delete headers[name];
  // The rules edit what the client sent; the edge's own forwarding headers are set after them (A63).
  applyHeaderEdits(headers, job.requestHeaders);
  const clientIp = request.socket.remoteAddress ?? '';
  const originHost = origin.hostHeader ?? job.host;
  const tls: OriginTlsTarget = { expectedName: originHost, enforceCertificateNameCheck: origin.enforceCertificateNameCheck };
  Object.assign(headers, {
    host: originHost,
    'x-forwarded-host': job.host,
    'x-forwarded-proto': job.protocol.toLowerCase(),
    'x-forwarded-for': [request.headers['x-forwarded-for'], clientIp].filter(Boolean).join(', '),
    'x-azure-clientip': clientIp,
    'x-azure-socketip': clientIp,
    'x-azure-ref': job.azureRef,
    'x-azure-fdid': job.entry.frontDoorId,
  });
  const send = https ? httpsRequest : httpRequest;
  const upstream = send(
    {
      host: target.host,
      port: target.port,
      method: request.method,
      path: `${job.path}${job.url.search}`,
      headers,
      ...(https ? originTlsOptions(tls) : {}),
      timeout: job.entry.originResponseTimeoutSeconds * 1000,
    },
    (upstreamResponse) => {
      const responseHeaders: OutgoingHttpHeaders = { ...upstreamResponse.headers };
      for (const name of ['connection', 'keep-alive', 'transfer-encoding']) delete responseHeaders[name];
      applyHeaderEdits(responseHeaders, job.responseHeaders);
      response.writeHead(upstreamResponse.statusCode ?? 502, {
        ...responseHeaders,
        'x-azure-ref': job.azureRef,
        'x-cache': 'CONFIG_NOCACHE',
        [EDGE_HEADER]: String(job.edgeIndex),
        'x-emulator-origin': origin.name,
      });
      upstreamResponse.pipe(response);
      dependencies.onRequest(job.edgeIndex, upstreamResponse.statusCode ?? 502);
    },
  );
  if (https) enforceOriginCertificateName(upstream, tls);
  let failed = false;
  const onFailure = (): void => {
    if (failed || response.headersSent) return;
    failed = true;
    fail('origin-unreachable');
  };
  upstream.on('timeout', () => upstream.destroy(new Error('origin response timeout')));
  upstream.on('error', onFailure);
  request.pipe(upstream);
}
