import type { KubeClient } from '@fleet-gateway/controller';
import { applyObject, gatewayBody, gatewayPath, publishExport, routeBody, routePath } from './hub-under-test.js';

/**
 * The objects a benchmark fleet is made of, written as a platform team and the members would: every service exported
 * from every cluster with a public origin, Gateways with one HTTP listener, and routes of one rule each, route `j` of
 * Gateway `g` sending `/r<j>` to service `svc-<(g·routes + j) mod services>`.
 */
export interface FleetShape {
  readonly gateways: number;
  readonly routesPerGateway: number;
  readonly services: number;
  readonly clusters: readonly string[];
}

/** How many requests the bench keeps in flight against the API server while it writes the fleet. */
const WRITERS = 32;

export const gatewayName = (g: number) => `g${g}`;
export const routeName = (g: number, j: number) => `g${g}-r${j}`;
export const serviceOf = (shape: FleetShape, g: number, j: number) => `svc-${(g * shape.routesPerGateway + j) % shape.services}`;

/** Route `j` of Gateway `g`, its path suffixed with `revision` when a benchmark changes it. */
export function benchRoute(shape: FleetShape, g: number, j: number, revision?: number) {
  const path = revision === undefined ? `/r${j}` : `/r${j}/v${revision}`;
  return routeBody(routeName(g, j), gatewayName(g), [{ path, backends: [{ name: serviceOf(shape, g, j) }] }]);
}

/** Runs `write` for 0..count-1 with WRITERS requests in flight. */
async function writeAll(count: number, write: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(WRITERS, count) }, async () => {
      while (next < count) await write(next++);
    }),
  );
}

export async function publishFleetExports(client: KubeClient, shape: FleetShape): Promise<void> {
  const { clusters } = shape;
  await writeAll(shape.services * clusters.length, (i) => {
    const service = Math.floor(i / clusters.length);
    const c = i % clusters.length;
    return publishExport(client, {
      cluster: clusters[c] ?? '',
      service: `svc-${service}`,
      publicAddress: `10.${c + 1}.${Math.floor(service / 250)}.${(service % 250) + 1}`,
    });
  });
}

export async function applyFleetRoutes(client: KubeClient, shape: FleetShape): Promise<void> {
  const perGateway = shape.routesPerGateway;
  await writeAll(shape.gateways * perGateway, (i) => {
    const g = Math.floor(i / perGateway);
    const j = i % perGateway;
    return applyObject(client, routePath(routeName(g, j)), benchRoute(shape, g, j));
  });
}

export async function applyFleetGateways(client: KubeClient, shape: FleetShape): Promise<void> {
  await writeAll(shape.gateways, (g) => applyObject(client, gatewayPath(gatewayName(g)), gatewayBody(gatewayName(g))));
}
