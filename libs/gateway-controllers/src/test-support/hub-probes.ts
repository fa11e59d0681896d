import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { profileName as profileNameOf } from '@fleet-gateway/azure-frontdoor';
import { isNotFound as isArmNotFound } from '@fleet-gateway/arm-runtime';
import { collectionPath, isNotFound, objectPath, type KubeClient } from '@fleet-gateway/controller';
import { serviceImports, type CachedServiceImport } from '@fleet-gateway/fleet-hub';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { eventually } from '@fleet-gateway/controller/test-support';
import { AZURE_PROGRAMMED_CONDITION } from '../route-status.js';
import { APP_NAMESPACE, conditionOf, publishExport, readGateway, readRoute, SCOPE, type HubUnderTest, type RunningAgent } from './hub-under-test.js';

/**
 * Test-only: what the hub's real-API tests read back — ARM request counts from the emulator, Gateway and route
 * conditions, the Gateway's Events, log lines, AFD resources, and answers at the emulator's edge.
 */
const WRITE_METHODS = ['PUT', 'PATCH', 'DELETE', 'POST'];

/** ARM writes the emulator answered (any status), all resource types. */
export const armWrites = (hub: HubUnderTest): number => WRITE_METHODS.reduce((sum, method) => sum + hub.emulator.admin.requestTotal({ method }), 0);
export const armReads = (hub: HubUnderTest): number => hub.emulator.admin.requestTotal({ method: 'GET' });

export const programmedOf = async (hub: HubUnderTest, name: string) => conditionOf(await readGateway(hub.client, name), 'Programmed');

/** The Gateway Programmed with every listener's routes attached and, through them, every backend resolved. */
/** Our parent entry's AzureProgrammed condition on a route, once it is there. */
export const whenRouteRefused = (hub: HubUnderTest, route: string, timeoutMs = 30_000) =>
  eventually(
    async () =>
      conditionOf(
        (await readRoute(hub.client, route)).status?.parents?.find((p) => p.controllerName === CONTROLLER_NAME),
        AZURE_PROGRAMMED_CONDITION,
      ),
    (c) => c !== undefined,
    timeoutMs,
  );

export async function whenProgrammed(hub: HubUnderTest, name: string, routes: readonly string[] = [], timeoutMs = 30_000) {
  for (const route of routes) {
    const ours = (r: Awaited<ReturnType<typeof readRoute>>) => r.status?.parents?.find((p) => p.controllerName === CONTROLLER_NAME);
    // Programmed for the route too: nothing it needs is refused by Azure.
    const ready = (r: Awaited<ReturnType<typeof readRoute>>) =>
      conditionOf(ours(r), 'ResolvedRefs')?.status === 'True' && conditionOf(ours(r), AZURE_PROGRAMMED_CONDITION) === undefined;
    const resolved = await eventually(() => readRoute(hub.client, route), ready, timeoutMs);
    if (!ready(resolved))
      throw new Error(
        `HTTPRoute ${route}: our ResolvedRefs is not True, or Azure refuses what it needs, after ${timeoutMs} ms: ${JSON.stringify(resolved.status?.parents)}`,
      );
  }
  return eventually(
    () => readGateway(hub.client, name),
    (g) =>
      conditionOf(g, 'Programmed')?.status === 'True' &&
      (g.status?.listeners?.[0]?.attachedRoutes ?? 0) >= routes.length &&
      (routes.length === 0 || (g.status?.addresses?.length ?? 0) > 0),
    timeoutMs,
  );
}

/**
 * Polls until the hub's Fleet side lists `clusters` on the ServiceImport of `service`: a Gateway created before that
 * is first programmed with the rule withdrawn (BackendNotFound), which tests that count writes must not race.
 */
export const whenImported = (hub: HubUnderTest, service: string, clusters: readonly string[], namespace = APP_NAMESPACE) =>
  eventually(
    () => hub.client.get<CachedServiceImport>(objectPath(serviceImports, service, namespace)).catch(() => undefined),
    (si) => clusters.every((c) => (si?.status?.clusters ?? []).some((listed) => listed.cluster === c)),
    30_000,
  );

/** The Gateway's AFD profile name (it depends on the Gateway's UID). */
export async function profileOf(hub: HubUnderTest, name: string): Promise<string> {
  const gateway = await readGateway(hub.client, name);
  return profileNameOf({ namespace: gateway.metadata.namespace ?? '', name: gateway.metadata.name ?? '', uid: gateway.metadata.uid ?? '', generation: 0 });
}

/** The enabled origins of a profile, as `group/origin`. */
export async function originNames(hub: HubUnderTest, profile: string): Promise<string[]> {
  const names: string[] = [];
  for await (const group of hub.clients.cdn.afdOriginGroups.listByProfile(SCOPE.resourceGroup, profile)) {
    try {
      for await (const origin of hub.clients.cdn.afdOrigins.listByOriginGroup(SCOPE.resourceGroup, profile, group.name ?? '')) {
        if (origin.enabledState !== 'Disabled') names.push(`${group.name}/${origin.name}`);
      }
    } catch (error) {
      // The hub deleted the group between the two lists (ParentResourceNotFound): it has no origins left.
      if (!isArmNotFound(error)) throw error;
    }
  }
  return names.sort();
}

export const gone = (read: () => Promise<unknown>): Promise<boolean> =>
  read().then(
    () => false,
    (error: unknown) => isNotFound(error),
  );

export interface RecordedEvent {
  readonly type: string;
  readonly reason: string;
  readonly note?: string;
  readonly action?: string;
  readonly regarding: { readonly kind?: string; readonly name?: string; readonly namespace?: string };
}

/** The events.k8s.io/v1 Events recorded about one object. */
export async function eventsAbout(client: KubeClient, kind: string, name: string, namespace = APP_NAMESPACE): Promise<RecordedEvent[]> {
  const list = await client.get<{ items: RecordedEvent[] }>(
    collectionPath({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true }, namespace),
  );
  return list.items.filter((e) => e.regarding.kind === kind && e.regarding.name === name);
}

/** The events.k8s.io/v1 Events recorded about a Gateway. */
export const gatewayEvents = (client: KubeClient, name: string): Promise<RecordedEvent[]> => eventsAbout(client, 'Gateway', name);

/** Polls until a Warning Event about the Gateway with that reason exists. */
export const whenWarned = (client: KubeClient, name: string, reason: string, timeoutMs = 20_000) =>
  eventually(
    () => gatewayEvents(client, name),
    (events) => events.some((e) => e.type === 'Warning' && e.reason === reason),
    timeoutMs,
  ).then((events) => events.find((e) => e.type === 'Warning' && e.reason === reason));

/**
 * A Gateway's reconciles have settled: its last one ended without writing (its own status writes wake it once more,
 * until one writes nothing) and no key waits in the queue of `agent`.
 */
export function settled(hub: HubUnderTest, agent: RunningAgent, name: string): boolean {
  const lines = hub.logs.lines.filter((l) => l.controller === 'gateway' && l.name === name);
  const last = lines.at(-1);
  if (last?.message !== 'requeued' && last?.message !== 'reconciled') return false;
  const wrote = lines.some((l) => l.reconcileId === last.reconcileId && (String(l.message).startsWith('wrote ') || String(l.message).startsWith('recorded ')));
  return !wrote && agent.gateway.controller.queueDepth === 0;
}

/** Log lines that carry a stack trace (a `stack` field, or `    at …` frames in any string). */
export function linesWithStackTraces(lines: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((line) => JSON.stringify(line).includes('"stack"') || /\\n\s+at /.test(JSON.stringify(line)));
}

/** Local servers standing in for members' Services, reached through the emulator's edge. */
export class EdgeProbe {
  private readonly servers: Server[] = [];

  constructor(private readonly hub: HubUnderTest) {}

  /** A local server behind `address`:80 that answers with its name. */
  async serveAt(address: string, name: string): Promise<void> {
    const server = createServer((_req, res) => res.end(name));
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.hub.emulator.admin.mapAddress(address, 80, { host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  }

  /**
   * A member-1 backend as a member publishes it: a local server answering `<service>@member-1` behind `address`:80,
   * the export with that public address, and the hub's ServiceImport listing the cluster.
   */
  async publishServed(service: string, address: string): Promise<void> {
    await this.serveAt(address, `${service}@member-1`);
    await publishExport(this.hub.client, { cluster: 'member-1', service, publicAddress: address });
    await whenImported(this.hub, service, ['member-1']);
  }

  get(path: string, host: string, edge = 0): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = get(`${this.hub.emulator.edgeUrl}${path}`, { headers: { host, 'x-emulator-edge': String(edge) } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
    });
  }

  /** Polls the edge, once propagation and health probes have caught up, until `done` holds for its answer. */
  until(path: string, host: string, done: (answer: { status: number; body: string }) => boolean, timeoutMs = 30_000) {
    return eventually(
      async () => {
        await this.hub.emulator.admin.whenPropagated();
        return this.get(path, host);
      },
      done,
      timeoutMs,
    );
  }

  answers(path: string, host: string, body: string) {
    return this.until(path, host, (a) => a.body === body);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** How many AFD resources a profile holds: the profile, its endpoints, origin groups, origins and routes. */
export async function afdResourceCount(hub: HubUnderTest, profile: string): Promise<number> {
  const { cdn } = hub.clients;
  const rg = SCOPE.resourceGroup;
  let count = 1;
  for await (const endpoint of cdn.afdEndpoints.listByProfile(rg, profile)) {
    count++;
    for await (const _route of cdn.routes.listByEndpoint(rg, profile, endpoint.name ?? '')) count++;
  }
  for await (const group of cdn.afdOriginGroups.listByProfile(rg, profile)) {
    count++;
    for await (const _origin of cdn.afdOrigins.listByOriginGroup(rg, profile, group.name ?? '')) count++;
  }
  return count;
}
