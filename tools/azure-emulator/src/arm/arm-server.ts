import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { faultError, type FaultInjector } from '../admin/faults.js';
import type { RequestCounters } from '../admin/counters.js';
import type { EmulatorContext } from '../emulator-context.js';
import { armActionOf } from '../authorization/arm-action.js';
import { linkedActionsOf } from '../authorization/linked-access.js';
import { authenticateArmRequest, type ArmAuthentication } from '../identity/arm-authentication.js';
import type { TokenIssuer } from '../identity/token-issuer.js';
import { resourceTypeOf, routeArmRequest } from './arm-router.js';
import { ArmError } from './errors.js';
import { errorResponse, parseJsonBody, readBody, writeResponse, type ArmResponse } from './http.js';
import { parseArmPath } from './resource-id.js';
import type { Throttler } from './throttling.js';

export interface ArmServerDependencies {
  context: EmulatorContext;
  throttler: Throttler;
  faults: FaultInjector;
  counters: RequestCounters;
  authentication: ArmAuthentication;
  tokens: TokenIssuer;
  onUnexpectedError: (error: unknown) => void;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The ARM endpoint: HTTPS on 127.0.0.1, faults first, then authentication, throttling, role assignments and routing. */
export async function startArmServer(dependencies: ArmServerDependencies, tls: { key: string; cert: string }, port: number): Promise<RunningServer> {
  const server = createServer({ key: tls.key, cert: tls.cert, keepAlive: true }, (request, response) => {
    handleArmHttpRequest(request, response, dependencies).catch(dependencies.onUnexpectedError);
  });
  return listen(server, port, 'https');
}

export async function listen(server: Server | HttpServer, port: number, scheme: 'http' | 'https'): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handleArmHttpRequest(request: IncomingMessage, response: ServerResponse, dependencies: ArmServerDependencies): Promise<void> {
  const { context, faults, counters } = dependencies;
  const method = (request.method ?? 'GET').toUpperCase();
  const host = request.headers.host ?? '127.0.0.1';
  const url = new URL(request.url ?? '/', `https://${host}`);
  const resourceType = resourceTypeOf(url.pathname, context);
  const requestId = randomUUID();
  const correlationId = request.headers['x-ms-correlation-request-id'];
  const headers: Record<string, string> = {
    'x-ms-request-id': requestId,
    'x-ms-correlation-request-id': typeof correlationId === 'string' ? correlationId : requestId,
  };
  let armResponse: ArmResponse;
  try {
    const latency = faults.take('latency', method, url.pathname);
    if (latency !== undefined) await sleep(latency.latencyMs ?? 0);
    if (faults.take('reset', method, url.pathname) !== undefined) {
      counters.record(method, resourceType, 0);
      request.socket.destroy();
      return;
    }
    if (faults.take('hang', method, url.pathname) !== undefined) {
      // Counted on arrival (status 0, as a reset), so a test can see the hang begin; it ends when the client gives up.
      counters.record(method, resourceType, 0);
      await new Promise<void>((resolve) => response.once('close', () => resolve()));
      return;
    }
    armResponse = await admitAndRoute(request, method, url, host, headers, dependencies);
  } catch (error) {
    armResponse = toErrorResponse(error, dependencies);
  }
  writeResponse(response, armResponse, headers);
  counters.record(method, resourceType, armResponse.status);
}

async function admitAndRoute(
  request: IncomingMessage,
  method: string,
  url: URL,
  host: string,
  headers: Record<string, string>,
  dependencies: ArmServerDependencies,
): Promise<ArmResponse> {
  const statusFault = dependencies.faults.take('status', method, url.pathname);
  if (statusFault !== undefined) {
    const fault = faultError(statusFault);
    throw new ArmError(fault.status, fault.code, fault.message, fault.headers);
  }
  const principalId = authenticateArmRequest(request.headers.authorization, host, dependencies.authentication, dependencies.tokens);
  const armPath = parseArmPath(url.pathname);
  if (armPath !== undefined) {
    const decision = dependencies.throttler.admit(armPath.subscriptionId, method, armPath.provider);
    Object.assign(headers, decision.headers);
    if (!decision.allowed) {
      throw new ArmError(429, 'SubscriptionRequestsThrottled', decision.message, { 'retry-after': String(decision.retryAfterSeconds) });
    }
  }
  const text = await readBody(request);
  const body = method === 'PUT' || method === 'PATCH' || method === 'POST' ? parseJsonBody(text) : undefined;
  const action = armActionOf(method, url.pathname, dependencies.context);
  if (action !== undefined) dependencies.context.roles.authorize(principalId, action, linkedActionsOf(method, armPath, body));
  // Operations whose end the clock has passed end before the request sees the state.
  dependencies.context.operations.finishDue();
  return routeArmRequest({ method, url, baseUrl: `https://${host}`, body }, dependencies.context);
}

/** Node's error for a request whose client went away before sending its body (a killed agent): nobody to answer. */
function isClientAbort(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted';
}

function toErrorResponse(error: unknown, dependencies: ArmServerDependencies): ArmResponse {
  if (error instanceof ArmError) return errorResponse(error);
  if (isClientAbort(error)) return errorResponse(new ArmError(400, 'BadRequest', 'The client closed the connection before sending its request.'));
  dependencies.onUnexpectedError(error);
  return errorResponse(new ArmError(500, 'InternalServerError', 'The emulator hit an unexpected error; see its log.'));
}
