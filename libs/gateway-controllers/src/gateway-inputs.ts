import type { Sku } from '@fleet-gateway/annotations';
import type { ObjectStore } from '@fleet-gateway/controller';
import { EXPORTED_SERVICE_INDEX, type CachedInternalServiceExport, type CachedServiceImport } from '@fleet-gateway/fleet-hub';
import { CONTROLLER_NAME, type HubInputs } from '@fleet-gateway/model';
import type { CachedGateway, CachedGatewayClass, CachedHTTPRoute, CachedNamespace, CachedReferenceGrant } from './gateway-api-resources.js';
import { backendServiceImportsOf, GATEWAYS_BY_CLASS, ROUTES_BY_PARENT } from './gateway-indexes.js';

/** The informer caches one Gateway reconcile reads, with the indexes of gateway-indexes.ts. */
export interface GatewayStores {
  readonly gatewayClasses: ObjectStore<CachedGatewayClass>;
  /** Indexed by GATEWAYS_BY_CLASS. */
  readonly gateways: ObjectStore<CachedGateway>;
  /** Indexed by ROUTES_BY_PARENT, ROUTES_BY_STATUS_PARENT and ROUTES_BY_BACKEND. */
  readonly httpRoutes: ObjectStore<CachedHTTPRoute>;
  readonly referenceGrants: ObjectStore<CachedReferenceGrant>;
  readonly serviceImports: ObjectStore<CachedServiceImport>;
  /** Indexed by EXPORTED_SERVICE_INDEX and EXPORTS_BY_GATEWAY. */
  readonly internalServiceExports: ObjectStore<CachedInternalServiceExport>;
  readonly namespaces: ObjectStore<CachedNamespace>;
}

/** The Gateways of every class this controller owns, by class name. */
export function ourGateways(stores: GatewayStores): CachedGateway[] {
  return stores.gatewayClasses
    .list()
    .filter((c) => c.spec.controllerName === CONTROLLER_NAME)
    .flatMap((c) => stores.gateways.byIndex(GATEWAYS_BY_CLASS, c.metadata.name ?? ''));
}

/**
 * What resolveGateway needs for one Gateway, read from the caches: only the routes that name it, the ServiceImports
 * those routes reference and their clusters' exports, the grants and namespace labels that decide permissions.
 */
export function collectHubInputs(stores: GatewayStores, gateway: CachedGateway, defaultSku: Sku): HubInputs {
  const key = `${gateway.metadata.namespace}/${gateway.metadata.name}`;
  const gatewayClass = stores.gatewayClasses.getByName(gateway.spec.gatewayClassName);
  const routes = stores.httpRoutes.byIndex(ROUTES_BY_PARENT, key);
  const importKeys = [...new Set(routes.flatMap(backendServiceImportsOf))];
  const imports = importKeys.flatMap((k) => stores.serviceImports.get(k) ?? []);
  const exports = importKeys.flatMap((k) => stores.internalServiceExports.byIndex(EXPORTED_SERVICE_INDEX, k));
  const grantNamespaces = new Set(importKeys.map((k) => k.slice(0, k.indexOf('/'))));
  const grants = stores.referenceGrants.list().filter((g) => grantNamespaces.has(g.metadata.namespace ?? ''));
  const routeNamespaces = new Set(routes.map((r) => r.metadata.namespace ?? ''));
  const namespaceLabels = [...routeNamespaces].flatMap((name) => {
    const ns = stores.namespaces.getByName(name);
    return ns ? [{ name, ...(ns.metadata.labels ? { labels: ns.metadata.labels } : {}) }] : [];
  });
  return {
    controller: { defaultSku },
    ...(gatewayClass ? { gatewayClass } : {}),
    gateway,
    otherGateways: ourGateways(stores).filter((g) => g.metadata.uid !== gateway.metadata.uid),
    httpRoutes: routes,
    referenceGrants: grants,
    serviceImports: imports,
    internalServiceExports: exports,
    namespaces: namespaceLabels,
  };
}
