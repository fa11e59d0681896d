import type { Sku } from '@fleet-gateway/annotations';
import type { ObjectStore } from '@fleet-gateway/controller';
import { EXPORTED_SERVICE_INDEX, type CachedInternalServiceExport, type CachedServiceImport } from '@fleet-gateway/fleet-hub';
import { CONTROLLER_NAME, type HubInputs } from '@fleet-gateway/model';
import type { CachedGateway, CachedGatewayClass, CachedHTTPRoute, CachedListenerSet, CachedNamespace, CachedReferenceGrant } from './gateway-api-resources.js';
import {
  backendServiceImportsOf,
  GATEWAYS_BY_CLASS,
  GATEWAYS_BY_HOSTNAME,
  LISTENER_SETS_BY_HOSTNAME,
  LISTENER_SETS_BY_PARENT,
  listenerHostnamesOf,
  listenerSetHostnamesOf,
  parentGatewayOfListenerSet,
  ROUTES_BY_PARENT,
  ROUTES_BY_PARENT_LISTENER_SET,
} from './gateway-indexes.js';

/** The informer caches one Gateway reconcile reads, with the indexes of gateway-indexes.ts. */
export interface GatewayStores {
  readonly gatewayClasses: ObjectStore<CachedGatewayClass>;
  /** Indexed by GATEWAYS_BY_CLASS and GATEWAYS_BY_HOSTNAME. */
  readonly gateways: ObjectStore<CachedGateway>;
  /** Indexed by ROUTES_BY_PARENT, ROUTES_BY_STATUS_PARENT and ROUTES_BY_BACKEND. */
  readonly httpRoutes: ObjectStore<CachedHTTPRoute>;
  readonly referenceGrants: ObjectStore<CachedReferenceGrant>;
  readonly serviceImports: ObjectStore<CachedServiceImport>;
  /** Indexed by EXPORTED_SERVICE_INDEX and EXPORTS_BY_GATEWAY. */
  readonly internalServiceExports: ObjectStore<CachedInternalServiceExport>;
  readonly namespaces: ObjectStore<CachedNamespace>;
  /** Indexed by LISTENER_SETS_BY_PARENT and LISTENER_SETS_BY_HOSTNAME; absent when the hub does not serve ListenerSets (Gateway API before v1.5). */
  readonly listenerSets?: ObjectStore<CachedListenerSet>;
}

/** The names of the GatewayClasses this controller owns. */
function ourClassNames(stores: GatewayStores): string[] {
  return stores.gatewayClasses.list().flatMap((c) => (c.spec.controllerName === CONTROLLER_NAME ? [c.metadata.name ?? ''] : []));
}

/** The Gateways of every class this controller owns (the AFD profiles this hub may hold). */
export function ourGateways(stores: GatewayStores): CachedGateway[] {
  return ourClassNames(stores).flatMap((name) => stores.gateways.byIndex(GATEWAYS_BY_CLASS, name));
}

/**
 * The other Gateways of this controller whose listener hostnames, or whose ListenerSets' listener hostnames, can
 * contest this one's or its ListenerSets' (filed under the same claim key): only they can hold one of its hostnames.
 */
function hostnameNeighbours(stores: GatewayStores, gateway: CachedGateway, sets: readonly CachedListenerSet[]): CachedGateway[] {
  const ourClasses = new Set(ourClassNames(stores));
  const neighbours = new Map<string, CachedGateway>();
  const consider = (other: CachedGateway | undefined) => {
    if (other && other.metadata.uid !== gateway.metadata.uid && ourClasses.has(other.spec.gatewayClassName)) neighbours.set(other.metadata.uid ?? '', other);
  };
  for (const key of new Set([...listenerHostnamesOf(gateway), ...sets.flatMap(listenerSetHostnamesOf)])) {
    for (const other of stores.gateways.byIndex(GATEWAYS_BY_HOSTNAME, key)) consider(other);
    for (const set of stores.listenerSets?.byIndex(LISTENER_SETS_BY_HOSTNAME, key) ?? [])
      for (const parent of parentGatewayOfListenerSet(set)) consider(stores.gateways.get(parent));
  }
  return [...neighbours.values()];
}

/** The routes naming the Gateway or one of its ListenerSets, each once. */
function routesOf(stores: GatewayStores, key: string, sets: readonly CachedListenerSet[]): CachedHTTPRoute[] {
  const throughSets = sets.flatMap((s) => stores.httpRoutes.byIndex(ROUTES_BY_PARENT_LISTENER_SET, `${s.metadata.namespace}/${s.metadata.name}`));
  return [
    ...new Map(
      [...stores.httpRoutes.byIndex(ROUTES_BY_PARENT, key), ...throughSets].map((r) => [r.metadata.uid ?? `${r.metadata.namespace}/${r.metadata.name}`, r]),
    ).values(),
  ];
}

/**
 * What resolveGateway needs for one Gateway, read from the caches: only the routes that name it (or its ListenerSets),
 * the ListenerSets naming it, the ServiceImports
 * those routes reference and their clusters' exports, the grants and namespace labels that decide permissions.
 */
export function collectHubInputs(stores: GatewayStores, gateway: CachedGateway, defaultSku: Sku): HubInputs {
  const key = `${gateway.metadata.namespace}/${gateway.metadata.name}`;
  const gatewayClass = stores.gatewayClasses.getByName(gateway.spec.gatewayClassName);
  const listenerSets = stores.listenerSets?.byIndex(LISTENER_SETS_BY_PARENT, key) ?? [];
  const routes = routesOf(stores, key, listenerSets);
  const neighbours = hostnameNeighbours(stores, gateway, listenerSets);
  const importKeys = [...new Set(routes.flatMap(backendServiceImportsOf))];
  const imports = importKeys.flatMap((k) => stores.serviceImports.get(k) ?? []);
  const exports = importKeys.flatMap((k) => stores.internalServiceExports.byIndex(EXPORTED_SERVICE_INDEX, k));
  const grantNamespaces = new Set(importKeys.map((k) => k.slice(0, k.indexOf('/'))));
  const grants = stores.referenceGrants.list().filter((g) => grantNamespaces.has(g.metadata.namespace ?? ''));
  // Route namespaces for allowedRoutes, ListenerSet namespaces for allowedListeners.
  const routeNamespaces = new Set([...routes, ...listenerSets].map((o) => o.metadata.namespace ?? ''));
  const namespaceLabels = [...routeNamespaces].flatMap((name) => {
    const ns = stores.namespaces.getByName(name);
    return ns ? [{ name, ...(ns.metadata.labels ? { labels: ns.metadata.labels } : {}) }] : [];
  });
  return {
    controller: { defaultSku },
    ...(gatewayClass ? { gatewayClass } : {}),
    gateway,
    otherGateways: neighbours,
    ...(stores.listenerSets
      ? {
          listenerSets,
          otherListenerSets: neighbours.flatMap(
            (n) => stores.listenerSets?.byIndex(LISTENER_SETS_BY_PARENT, `${n.metadata.namespace}/${n.metadata.name}`) ?? [],
          ),
        }
      : {}),
    httpRoutes: routes,
    referenceGrants: grants,
    serviceImports: imports,
    internalServiceExports: exports,
    namespaces: namespaceLabels,
  };
}
