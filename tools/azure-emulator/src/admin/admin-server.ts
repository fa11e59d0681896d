import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, type RunningServer } from '../arm/arm-server.js';
import { ArmError, badRequest } from '../arm/errors.js';
import { errorResponse, parseJsonBody, readBody, writeResponse, type ArmResponse } from '../arm/http.js';
import { isJsonObject, type JsonObject } from '../arm/json.js';
import { parseRoleDefinition } from '../authorization/role-definition.js';
import type { WafPolicySpec } from '../network/waf-policies.js';
import type { EmulatorAdmin } from './emulator-admin.js';
import type { FaultSpec } from './faults.js';

type Handler = (body: JsonObject, admin: EmulatorAdmin) => ArmResponse | Promise<ArmResponse>;

const ok = (body?: unknown): ArmResponse => ({ status: 200, body: body ?? {} });

/** The admin API over plain HTTP on 127.0.0.1: the same operations as EmulatorAdmin, JSON in and out. */
const ADMIN_ROUTES: Record<string, Handler> = {
  'GET /state': (_body, admin) => ok(admin.dumpState()),
  'GET /counters': (_body, admin) => ok(admin.requestCounts()),
  'DELETE /counters': (_body, admin) => ok(admin.resetCounters()),
  'GET /faults': (_body, admin) => ok(admin.listFaults()),
  'POST /faults': (body, admin) => ({ status: 201, body: admin.injectFault(body as unknown as FaultSpec) }),
  'DELETE /faults': (_body, admin) => ok(admin.clearFaults()),
  'POST /operations/finish': (_body, admin) => ok({ finished: admin.finishOperations() }),
  'PUT /resource-groups': (body, admin) => ({
    status: 201,
    body: {
      id: admin.createResourceGroup({
        subscriptionId: requireString(body, 'subscriptionId'),
        name: requireString(body, 'name'),
        ...(typeof body.location === 'string' ? { location: body.location } : {}),
      }),
    },
  }),
  'POST /custom-domains/validate': (body, admin) => ok(admin.validateCustomDomain(requireString(body, 'id'))),
  'POST /custom-domains/validation-state': (body, admin) => ok(admin.setCustomDomainValidationState(requireString(body, 'id'), requireString(body, 'state'))),
  'POST /private-endpoint-connections': (body, admin) => ({
    status: 201,
    body: {
      id: admin.connectPrivateEndpoint({
        privateLinkServiceId: requireString(body, 'privateLinkServiceId'),
        privateEndpointId: requireString(body, 'privateEndpointId'),
        ...(typeof body.requestMessage === 'string' ? { requestMessage: body.requestMessage } : {}),
      }),
    },
  }),
  'POST /role-assignments': (body, admin) => {
    admin.assignRole({ principalId: requireString(body, 'principalId'), scope: requireString(body, 'scope'), role: parseRoleDefinition(body.roleDefinition) });
    return { status: 201, body: {} };
  },
  'DELETE /role-assignments': (_body, admin) => ok(admin.clearRoleAssignments()),
  'POST /role-assignments/exercised': (body, admin) => ok(admin.exercisedActions(requireString(body, 'principalId'))),
  'POST /waf-policies': (body, admin) => ({ status: 201, body: { id: admin.createWafPolicy(wafSpec(body)) } }),
  'DELETE /waf-policies': (body, admin) => ok(admin.deleteWafPolicy(requireString(body, 'id'))),
  'GET /edge': (_body, admin) => ok(admin.edgeStatus()),
  'POST /edge/propagated': async (_body, admin) => ok(await admin.whenPropagated()),
  'PUT /edge/origin-latency': (body, admin) => ok(admin.setOriginLatency(requireString(body, 'hostName'), requireNumber(body, 'latencyMs'))),
  'PUT /edge/addresses': (body, admin) => {
    const target = body.target;
    if (!isJsonObject(target)) throw badRequest("'target' must be an object { host, port }.");
    return ok(
      admin.mapAddress(requireString(body, 'address'), requireNumber(body, 'port'), {
        host: requireString(target, 'host', 'target.host'),
        port: requireNumber(target, 'port', 'target.port'),
      }),
    );
  },
  'DELETE /edge/addresses': (body, admin) => ok(admin.unmapAddress(requireString(body, 'address'), requireNumber(body, 'port'))),
};

export async function startAdminServer(admin: EmulatorAdmin, port: number): Promise<RunningServer> {
  const server = createServer((request, response) => {
    void handle(request, response, admin);
  });
  return listen(server, port, 'http');
}

async function handle(request: IncomingMessage, response: ServerResponse, admin: EmulatorAdmin): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://admin').pathname.replace(/\/+$/, '') || '/';
  let result: ArmResponse;
  try {
    const body = parseJsonBody(await readBody(request)) ?? {};
    if (!isJsonObject(body)) throw badRequest('The request body must be a JSON object.');
    const route = ADMIN_ROUTES[`${request.method ?? 'GET'} ${path}`];
    if (path === '/' && request.method === 'GET') result = ok({ routes: Object.keys(ADMIN_ROUTES) });
    else if (route === undefined) throw new ArmError(404, 'NotFound', `No admin operation '${request.method} ${path}'; GET / lists them.`);
    else result = await route(body, admin);
  } catch (error) {
    result = errorResponse(error instanceof ArmError ? error : new ArmError(500, 'InternalServerError', String(error)));
  }
  writeResponse(response, result);
}

function requireString(body: JsonObject, member: string, field = member): string {
  const value = body[member];
  if (typeof value !== 'string' || value === '') throw badRequest(`'${field}' must be a non-empty string; got ${JSON.stringify(value ?? null)}.`);
  return value;
}

function requireNumber(body: JsonObject, member: string, field = member): number {
  const value = body[member];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`'${field}' must be a number; got ${JSON.stringify(value ?? null)}.`);
  return value;
}

function wafSpec(body: JsonObject): WafPolicySpec {
  return {
    subscriptionId: requireString(body, 'subscriptionId'),
    resourceGroup: requireString(body, 'resourceGroup'),
    name: requireString(body, 'name'),
    sku: requireString(body, 'sku'),
    ...(body.enabledState === undefined ? {} : { enabledState: body.enabledState as WafPolicySpec['enabledState'] }),
    ...(body.mode === undefined ? {} : { mode: body.mode as WafPolicySpec['mode'] }),
  };
}
