import type { Sku } from '@fleet-gateway/annotations';
import {
  Controller,
  Informer,
  namespaceIndexName,
  parseRequestKey,
  StatusWriter,
  type CheckResult,
  type EventRecorder,
  type Manager,
  type ReconcileRequest,
} from '@fleet-gateway/controller';
import { exportedServiceOf, type CachedInternalServiceExport, type CachedServiceImport } from '@fleet-gateway/fleet-hub';
import type { Registry } from 'prom-client';
import {
  gateways,
  httpRoutes,
  listenerSets,
  namespaces,
  referenceGrants,
  type CachedGateway,
  type CachedGatewayClass,
  type CachedHTTPRoute,
  type CachedListenerSet,
  type CachedNamespace,
  type CachedReferenceGrant,
} from './gateway-api-resources.js';
import {
  GATEWAY_INDEXERS,
  LISTENER_SET_INDEXERS,
  ROUTE_INDEXERS,
  EXPORTS_BY_GATEWAY,
  GATEWAYS_BY_CLASS,
  GATEWAYS_BY_HOSTNAME,
  heldHostnamesOf,
  heldListenerSetHostnamesOf,
  LISTENER_SETS_BY_HOSTNAME,
  listenerSetHostnamesOf,
  listenerHostnamesOf,
  parentGatewayOfListenerSet,
  parentGatewaysOf,
  parentListenerSetsOf,
  statusParentListenerSetsOf,
  ROUTES_BY_BACKEND,
  statusGatewaysOf,
  statusParentGatewaysOf,
} from './gateway-indexes.js';
import { GatewayMetrics } from './gateway-metrics.js';
import { gatewayReconciler, type AzureFrontDoorAccess } from './gateway-reconciler.js';
import { ProgrammingTasks } from './programming-tasks.js';
import { informerSettings, type SharedInformerSettings } from './informer-options.js';
import { GATEWAY_FIELD_MANAGER } from './register-gateway-class-controller.js';

export interface GatewayControllerOptions extends SharedInformerSettings {
  readonly manager: Manager;
  readonly events: EventRecorder;
  /** Where the Gateway gauges register (the agent's /metrics registry). */
  readonly registry?: Registry;
  /** Shared caches, registered by registerGatewayClassController and registerFleetHubControllers. */
  readonly gatewayClasses: Informer<CachedGatewayClass>;
  readonly serviceImports: Informer<CachedServiceImport>;
  /** Must carry libs/fleet-hub's EXPORTED_SERVICE_INDEX; EXPORTS_BY_GATEWAY is added here. */
  readonly internalServiceExports: Informer<CachedInternalServiceExport>;
  readonly defaultSku: Sku;
  /** Absent with `--enable-afd=false`: no Azure client exists and nothing in Azure is touched. */
  readonly azure?: AzureFrontDoorAccess;
  readonly prerequisite?: { check(): CheckResult };
  /** Different Gateways reconciled at once. Default 4. */
  readonly concurrency?: number;
  readonly fieldManager?: string;
  readonly newRequestMessage?: () => string;
  /** Whether the hub serves ListenerSets (servesKind of servedGatewayApi): only then are they watched. */
  readonly listenerSets?: boolean;
}

export interface GatewayControllers {
  readonly controller: Controller;
  readonly gateways: Informer<CachedGateway>;
  readonly httpRoutes: Informer<CachedHTTPRoute>;
  readonly referenceGrants: Informer<CachedReferenceGrant>;
  readonly namespaces: Informer<CachedNamespace>;
  /** Absent when the hub does not serve ListenerSets. */
  readonly listenerSets?: Informer<CachedListenerSet>;
  readonly statusWriter: StatusWriter;
}

const keys = (values: readonly string[]): ReconcileRequest[] => values.map(parseRequestKey);

/**
 * Registers on `manager` the informers the Gateway controller adds (Gateways, HTTPRoutes, ReferenceGrants,
 * Namespaces) and the `gateway` controller keyed by Gateway, with the mappings that bring a Gateway back when
 * anything it reads changes: its class, routes naming it (or carrying our status about it), the ServiceImports and
 * exports those routes reach, grants and namespace labels, and other Gateways claiming the same hostname.
 */
export function registerGatewayController(options: GatewayControllerOptions): GatewayControllers {
  const { manager, client, metrics, logger } = options;
  const common = informerSettings(options);
  const gatewayInformer = manager.addInformer(
    new Informer<CachedGateway>({
      ...common,
      resource: gateways,
      indexers: GATEWAY_INDEXERS,
    }),
  );
  const routeInformer = manager.addInformer(
    new Informer<CachedHTTPRoute>({
      ...common,
      resource: httpRoutes,
      indexers: ROUTE_INDEXERS,
    }),
  );
  const grantInformer = manager.addInformer(new Informer<CachedReferenceGrant>({ ...common, resource: referenceGrants }));
  const namespaceInformer = manager.addInformer(new Informer<CachedNamespace>({ ...common, resource: namespaces }));
  const listenerSetInformer = options.listenerSets
    ? manager.addInformer(
        new Informer<CachedListenerSet>({
          ...common,
          resource: listenerSets,
          indexers: LISTENER_SET_INDEXERS,
        }),
      )
    : undefined;
  options.internalServiceExports.store.addIndex(EXPORTS_BY_GATEWAY, statusGatewaysOf);

  const fieldManager = options.fieldManager ?? GATEWAY_FIELD_MANAGER;
  const statusWriter = new StatusWriter({ client, fieldManager, logger });
  const stores = {
    gatewayClasses: options.gatewayClasses.store,
    gateways: gatewayInformer.store,
    httpRoutes: routeInformer.store,
    referenceGrants: grantInformer.store,
    serviceImports: options.serviceImports.store,
    internalServiceExports: options.internalServiceExports.store,
    namespaces: namespaceInformer.store,
    ...(listenerSetInformer ? { listenerSets: listenerSetInformer.store } : {}),
  };
  const programming = new ProgrammingTasks();
  const controller = manager.addController(
    new Controller({
      name: 'gateway',
      kind: 'Gateway',
      concurrency: options.concurrency ?? 4,
      logger,
      ...(metrics ? { metrics } : {}),
      reconcile: gatewayReconciler({
        client,
        stores,
        statusWriter,
        events: options.events,
        defaultSku: options.defaultSku,
        ...(options.azure ? { azure: options.azure } : {}),
        ...(options.prerequisite ? { prerequisite: options.prerequisite } : {}),
        programming,
        ...(options.registry ? { metrics: new GatewayMetrics(options.registry, () => programming.running) } : {}),
        ...(options.newRequestMessage ? { newRequestMessage: options.newRequestMessage } : {}),
      }),
    }),
  );
  // A route naming a ListenerSet belongs to the ListenerSet's Gateway.
  const gatewaysOfSets = (setKeys: readonly string[]) =>
    setKeys.flatMap((k) => {
      const set = listenerSetInformer?.store.get(k);
      return set ? parentGatewayOfListenerSet(set) : [];
    });
  const gatewaysOfRoutes = (routes: readonly CachedHTTPRoute[]) =>
    keys([...new Set(routes.flatMap((r) => [...parentGatewaysOf(r), ...gatewaysOfSets(parentListenerSetsOf(r))]))]);
  const routesOfImports = (importKeys: readonly string[]) => importKeys.flatMap((k) => routeInformer.store.byIndex(ROUTES_BY_BACKEND, k));

  controller.watch(gatewayInformer);
  // A Gateway's listeners decide which hostnames other Gateways may claim: when its spec changes (or it comes or
  // goes), those whose hostnames can contest its own look again, and so they do when its status shows it took or
  // let go of a hostname (a holder ranks first). Its other status writes change no claim, so they wake no one else:
  // a failing Gateway's backoff must not be cut short by its neighbours' progress.
  // Gateways with a listener, or a ListenerSet listener, under one of these hostname claim keys.
  const claimingKeys = (keys: readonly string[]) =>
    keys.flatMap((h) => [
      ...gatewayInformer.store.byIndex(GATEWAYS_BY_HOSTNAME, h).map((g) => `${g.metadata.namespace}/${g.metadata.name}`),
      ...(listenerSetInformer?.store.byIndex(LISTENER_SETS_BY_HOSTNAME, h).flatMap(parentGatewayOfListenerSet) ?? []),
    ]);
  const sharingHostnames = (gateway: CachedGateway) => claimingKeys(listenerHostnamesOf(gateway));
  gatewayInformer.subscribe((event) => {
    if (event.type === 'resynced') return;
    if (
      event.type === 'updated' &&
      event.old.metadata.generation === event.object.metadata.generation &&
      heldHostnamesOf(event.old) === heldHostnamesOf(event.object)
    )
      return;
    const self = `${event.object.metadata.namespace}/${event.object.metadata.name}`;
    const others = new Set([...sharingHostnames(event.object), ...(event.type === 'updated' ? sharingHostnames(event.old) : [])]);
    others.delete(self);
    for (const request of keys([...others])) controller.enqueue(request);
  });
  controller.watch(options.gatewayClasses, (gatewayClass) =>
    gatewayInformer.store
      .byIndex(GATEWAYS_BY_CLASS, gatewayClass.metadata.name ?? '')
      .map((g) => ({ namespace: g.metadata.namespace ?? '', name: g.metadata.name ?? '' })),
  );
  controller.watch(routeInformer, (route) =>
    keys([
      ...new Set([
        ...parentGatewaysOf(route),
        ...statusParentGatewaysOf(route),
        ...gatewaysOfSets([...parentListenerSetsOf(route), ...statusParentListenerSetsOf(route)]),
      ]),
    ]),
  );
  if (listenerSetInformer) {
    // A ListenerSet's spec (or its coming and going) changes its Gateway, the old one too when its parentRef moved;
    // the status this controller writes on it does not, unless it took or let go of a hostname.
    listenerSetInformer.subscribe((event) => {
      if (event.type === 'resynced') return;
      const specChanged = event.type !== 'updated' || event.old.metadata.generation !== event.object.metadata.generation;
      if (!specChanged && heldListenerSetHostnamesOf(event.old) === heldListenerSetHostnamesOf(event.object)) return;
      const sets = [event.object, ...(event.type === 'updated' ? [event.old] : [])];
      const parents = new Set(sets.flatMap(parentGatewayOfListenerSet));
      // Its hostnames are claims of its Gateway's profile: the Gateways sharing them look again, as for a Gateway's own.
      const others = new Set(claimingKeys(sets.flatMap(listenerSetHostnamesOf)).filter((k) => !parents.has(k)));
      for (const request of keys([...(specChanged ? parents : []), ...others])) controller.enqueue(request);
    });
  }
  controller.watch(options.serviceImports, (si) => gatewaysOfRoutes(routesOfImports([`${si.metadata.namespace}/${si.metadata.name}`])));
  controller.watch(options.internalServiceExports, (ise) => gatewaysOfRoutes(routesOfImports(exportedServiceOf(ise))));
  controller.watch(grantInformer, (grant) => {
    const from = new Set((grant.spec?.from ?? []).map((f) => f.namespace));
    return gatewaysOfRoutes([...from].flatMap((ns) => routeInformer.store.byIndex(namespaceIndexName, ns)));
  });
  controller.watch(namespaceInformer, (ns) => {
    const name = ns.metadata.name ?? '';
    const sets = listenerSetInformer?.store.byIndex(namespaceIndexName, name) ?? [];
    return [...gatewaysOfRoutes(routeInformer.store.byIndex(namespaceIndexName, name)), ...keys([...new Set(sets.flatMap(parentGatewayOfListenerSet))])];
  });
  return {
    controller,
    gateways: gatewayInformer,
    httpRoutes: routeInformer,
    referenceGrants: grantInformer,
    namespaces: namespaceInformer,
    ...(listenerSetInformer ? { listenerSets: listenerSetInformer } : {}),
    statusWriter,
  };
}
