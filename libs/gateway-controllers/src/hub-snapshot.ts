import type { Sku } from '@fleet-gateway/annotations';
import { ObjectStore, type IndexFunction, type KubeObject } from '@fleet-gateway/controller';
import { EXPORTED_SERVICE_INDEX, exportedServiceOf, type CachedInternalServiceExport, type CachedServiceImport } from '@fleet-gateway/fleet-hub';
import type { HubInputs } from '@fleet-gateway/model';
import type { CachedGateway, CachedGatewayClass, CachedHTTPRoute, CachedListenerSet, CachedNamespace, CachedReferenceGrant } from './gateway-api-resources.js';
import { collectHubInputs, type GatewayStores } from './gateway-inputs.js';
import { GATEWAY_INDEXERS, LISTENER_SET_INDEXERS, ROUTE_INDEXERS } from './gateway-indexes.js';

/** The hub's objects as one list per kind, read once (a tool's snapshot rather than an informer's cache). */
export interface HubObjects {
  readonly gatewayClasses: readonly CachedGatewayClass[];
  readonly gateways: readonly CachedGateway[];
  readonly httpRoutes: readonly CachedHTTPRoute[];
  readonly referenceGrants: readonly CachedReferenceGrant[];
  readonly serviceImports: readonly CachedServiceImport[];
  readonly internalServiceExports: readonly CachedInternalServiceExport[];
  readonly namespaces: readonly CachedNamespace[];
  /** Absent when the hub does not serve ListenerSets (Gateway API before v1.5), as the agent's store is. */
  readonly listenerSets?: readonly CachedListenerSet[];
}

function storeOf<T extends KubeObject>(objects: readonly T[], indexers: Readonly<Record<string, IndexFunction<T>>> = {}): ObjectStore<T> {
  const store = new ObjectStore<T>(indexers, { freeze: false });
  store.replace(objects);
  return store;
}

/** The stores the Gateway reconciler reads, with the same indexes, filled from a snapshot. */
function storesOf(objects: HubObjects): GatewayStores {
  return {
    gatewayClasses: storeOf(objects.gatewayClasses),
    gateways: storeOf(objects.gateways, GATEWAY_INDEXERS),
    httpRoutes: storeOf(objects.httpRoutes, ROUTE_INDEXERS),
    referenceGrants: storeOf(objects.referenceGrants),
    serviceImports: storeOf(objects.serviceImports),
    internalServiceExports: storeOf(objects.internalServiceExports, { [EXPORTED_SERVICE_INDEX]: exportedServiceOf }),
    namespaces: storeOf(objects.namespaces),
    ...(objects.listenerSets ? { listenerSets: storeOf(objects.listenerSets, LISTENER_SET_INDEXERS) } : {}),
  };
}

/**
 * What the hub's Gateway reconcile would hand resolveGateway for the Gateway `namespace/name`, from a snapshot of the
 * hub's objects: the same selection (collectHubInputs) over the same indexes, so a tool reading it cannot disagree
 * with the hub. Undefined when the snapshot has no such Gateway.
 */
export function hubInputsOf(objects: HubObjects, gatewayKey: string, defaultSku: Sku): HubInputs | undefined {
  const stores = storesOf(objects);
  const gateway = stores.gateways.get(gatewayKey);
  return gateway ? collectHubInputs(stores, gateway, defaultSku) : undefined;
}
