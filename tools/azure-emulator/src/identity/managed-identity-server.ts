import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { RequestCounters } from '../admin/counters.js';
import { listen, type RunningServer } from '../arm/arm-server.js';
import type { TokenIssuer } from './token-issuer.js';

/** App Service's managed-identity protocol version that MSAL (and so @azure/identity) speaks. */
export const APP_SERVICE_MSI_API_VERSION = '2019-08-01';
export const IDENTITY_HEADER_NAME = 'x-identity-header';
/** The counters' resource type for token requests, beside ARM's. */
export const TOKEN_REQUEST_TYPE = 'managedIdentity/token';

const TOKEN_PATH = /^\/msi\/token\/?$/i;

export interface ManagedIdentityEndpoint extends RunningServer {
  /** `IDENTITY_ENDPOINT`: http://127.0.0.1:<port>/msi/token, as App Service sets it. */
  endpoint: string;
  /** `IDENTITY_HEADER`: the secret every request must carry in X-IDENTITY-HEADER. */
  header: string;
}

interface Answer {
  status: number;
  body: Record<string, string>;
}

const failure = (status: number, message: string): Answer => ({ status, body: { statusCode: String(status), message, correlationId: randomUUID() } });

/**
 * The token endpoint App Service gives a process through IDENTITY_ENDPOINT and IDENTITY_HEADER, on 127.0.0.1 over
 * plain HTTP as on App Service: DefaultAzureCredential's ManagedIdentityCredential selects it from those two
 * environment variables alone and fetches its tokens here without any code change.
 */
export async function startManagedIdentityEndpoint(issuer: TokenIssuer, counters: RequestCounters, port: number): Promise<ManagedIdentityEndpoint> {
  const header = randomUUID().replaceAll('-', '').toUpperCase();
  const server = createServer((request, response) => {
    const answer = answerTokenRequest(request, header, issuer);
    write(response, answer);
    counters.record(request.method ?? 'GET', TOKEN_REQUEST_TYPE, answer.status);
  });
  const running = await listen(server, port, 'http');
  return { ...running, endpoint: `${running.url}/msi/token`, header };
}

function answerTokenRequest(request: IncomingMessage, secret: string, issuer: TokenIssuer): Answer {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (!TOKEN_PATH.test(url.pathname)) return failure(404, `No managed identity endpoint at '${url.pathname}'; tokens are served at /msi/token.`);
  if (request.method !== 'GET') return failure(405, `The managed identity endpoint answers GET only; got ${request.method}.`);
  if (request.headers[IDENTITY_HEADER_NAME] !== secret) {
    return failure(401, 'The X-IDENTITY-HEADER header is missing or does not match IDENTITY_HEADER.');
  }
  const apiVersion = url.searchParams.get('api-version');
  if (apiVersion !== APP_SERVICE_MSI_API_VERSION) {
    return failure(400, `The api-version '${apiVersion ?? ''}' is not supported; use '${APP_SERVICE_MSI_API_VERSION}'.`);
  }
  const resource = url.searchParams.get('resource');
  if (!resource) return failure(400, "The 'resource' query parameter is required.");
  const requested = ['client_id', 'principal_id', 'object_id', 'mi_res_id'].map((name) => url.searchParams.get(name)).find((value) => value !== null);
  const identity = issuer.identity;
  if (requested !== undefined && requested !== identity.clientId && requested !== identity.principalId) {
    return failure(400, 'No User Assigned or Delegated Managed Identity found for specified ClientId/ResourceId/PrincipalId.');
  }
  const token = issuer.issue(resource);
  return {
    status: 200,
    body: { access_token: token.accessToken, expires_on: String(token.expiresOn), resource: token.resource, token_type: 'Bearer', client_id: token.clientId },
  };
}

function write(response: ServerResponse, answer: Answer): void {
  const payload = JSON.stringify(answer.body);
  response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) });
  response.end(payload);
}
