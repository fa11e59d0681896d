import type { InternalServiceExport, ParentReference } from '@fleet-gateway/api-types';
import { namespaceIndex, namespaceIndexName, type IndexFunction } from '@fleet-gateway/controller';
import { acceptedSpecsOf, claimsOf, CONTROLLER_NAME, hostnameClaimKey, listenerSetParent } from '@fleet-gateway/model';
import type { CachedGateway, CachedHTTPRoute, CachedListenerSet } from './gateway-api-resources.js';

const GATEWAY_GROUP = 'gateway.networking.k8s.io';
const FLEET_NETWORKING_GROUP = 'networking.fleet.azure.com';

/** Routes by `<namespace>/<name>` of each Gateway a parentRef of theirs names. */
export const ROUTES_BY_PARENT = 'parentGateway';
/** Routes by `<namespace>/<name>` of each Gateway our status entries of theirs are about (to clear them once detached). */
export const ROUTES_BY_STATUS_PARENT = 'statusParentGateway';
/** Routes by `<namespace>/<name>` of each ServiceImport a backendRef of theirs names. */
export const ROUTES_BY_BACKEND = 'backendServiceImport';
/** Gateways by the name of their GatewayClass. */
export const GATEWAYS_BY_CLASS = 'gatewayClass';
/**
 * Gateways by the claim key of each listener hostname (libs/model hostnameClaimKey: `*.contoso.com` for it and for its
 * first-level subdomains): every Gateway whose claim can contest another's is filed under the same key.
 */
export const GATEWAYS_BY_HOSTNAME = 'listenerHostname';
/** ListenerSets by `<namespace>/<name>` of the Gateway their parentRef names. */
export const LISTENER_SETS_BY_PARENT = 'parentGateway';
/** ListenerSets by the claim key of each listener hostname, as GATEWAYS_BY_HOSTNAME files Gateways. */
export const LISTENER_SETS_BY_HOSTNAME = 'listenerHostname';
/** Routes by `<namespace>/<name>` of each ListenerSet a parentRef of theirs names. */
export const ROUTES_BY_PARENT_LISTENER_SET = 'parentListenerSet';
/** Routes by `<namespace>/<name>` of each ListenerSet our status entries of theirs are about. */
export const ROUTES_BY_STATUS_LISTENER_SET = 'statusParentListenerSet';
/** Routes with our status entries about any ListenerSet, under WITH_LISTENER_SET_STATUS: to find those whose ListenerSet is gone. */
export const ROUTES_WITH_LISTENER_SET_STATUS = 'withListenerSetStatus';
export const WITH_LISTENER_SET_STATUS = 'any';
/** InternalServiceExports by each Gateway (`<namespace>/<name>`) whose entries their status carries. */
export const EXPORTS_BY_GATEWAY = 'statusGateway';

type ParentKind = 'Gateway' | 'ListenerSet';

/** `<namespace>/<name>` of the object of `kind` a parentRef names; undefined when it names another kind. */
function parentKey(kind: ParentKind, routeNamespace: string, ref: ParentReference): string | undefined {
  if ((ref.group ?? GATEWAY_GROUP) !== GATEWAY_GROUP || (ref.kind ?? 'Gateway') !== kind) return undefined;
  return `${ref.namespace ?? routeNamespace}/${ref.name}`;
}

/** The parents of `kind` a route's spec names, each once. */
function specParentsOf(kind: ParentKind, route: CachedHTTPRoute): readonly string[] {
  const namespace = route.metadata.namespace ?? '';
  return [...new Set((route.spec.parentRefs ?? []).flatMap((ref) => parentKey(kind, namespace, ref) ?? []))];
}

/** The parents of `kind` our entries of a route's status are about, each once. */
function statusParentsOf(kind: ParentKind, route: CachedHTTPRoute): readonly string[] {
  const namespace = route.metadata.namespace ?? '';
  const ours = (route.status?.parents ?? []).filter((p) => p.controllerName === CONTROLLER_NAME);
  return [...new Set(ours.flatMap((p) => parentKey(kind, namespace, p.parentRef) ?? []))];
}

export const gatewayParentKey = (routeNamespace: string, ref: ParentReference) => parentKey('Gateway', routeNamespace, ref);
export const listenerSetParentKey = (routeNamespace: string, ref: ParentReference) => parentKey('ListenerSet', routeNamespace, ref);
export const parentGatewaysOf = (route: CachedHTTPRoute) => specParentsOf('Gateway', route);
export const statusParentGatewaysOf = (route: CachedHTTPRoute) => statusParentsOf('Gateway', route);
export const parentListenerSetsOf = (route: CachedHTTPRoute) => specParentsOf('ListenerSet', route);
export const statusParentListenerSetsOf = (route: CachedHTTPRoute) => statusParentsOf('ListenerSet', route);

export function withListenerSetStatusOf(route: CachedHTTPRoute): readonly string[] {
  return statusParentListenerSetsOf(route).length > 0 ? [WITH_LISTENER_SET_STATUS] : [];
}

export function parentGatewayOfListenerSet(set: CachedListenerSet): readonly string[] {
  const parent = listenerSetParent(set);
  return parent ? [parent] : [];
}

/** The claim keys of a ListenerSet's listener hostnames: they become custom domains of its Gateway's profile. */
export function listenerSetHostnamesOf(set: CachedListenerSet): readonly string[] {
  return hostnameClaimKeysOf(set.spec.listeners);
}

function hostnameClaimKeysOf(listeners: readonly { readonly hostname?: string }[]): readonly string[] {
  return [...new Set(listeners.flatMap((l) => (l.hostname ? hostnameClaimKey(l.hostname) : [])))];
}

/** The ServiceImports of the route's spec and of the generations its Gateways keep serving while it is held. */
export function backendServiceImportsOf(route: CachedHTTPRoute): readonly string[] {
  const namespace = route.metadata.namespace ?? '';
  const specs = [route.spec, ...acceptedSpecsOf(route).map((record) => record.spec)];
  const refs = specs.flatMap((spec) => (spec.rules ?? []).flatMap((rule) => rule.backendRefs ?? []));
  const imports = refs.filter((ref) => ref.group === FLEET_NETWORKING_GROUP && ref.kind === 'ServiceImport');
  return [...new Set(imports.map((ref) => `${ref.namespace ?? namespace}/${ref.name}`))];
}

export function gatewayClassOf(gateway: CachedGateway): readonly string[] {
  return [gateway.spec.gatewayClassName];
}

/** A listener without a hostname claims nothing another Gateway could conflict with (libs/model hostname-claims). */
export function listenerHostnamesOf(gateway: CachedGateway): readonly string[] {
  return hostnameClaimKeysOf(gateway.spec.listeners);
}

/**
 * Which hostnames the Gateway's status says it holds: when this changes (it took or let go of one), the Gateways
 * claiming the same hostnames decide again (libs/model hostname-claims ranks a held claim first).
 */
export function heldHostnamesOf(gateway: CachedGateway): string {
  return claimsOf(gateway)
    .map((c) => `${c.hostname}=${c.standing}`)
    .sort()
    .join(',');
}

/**
 * Which of a ListenerSet's listeners its status says hold their hostname (and at which generation): when this changes,
 * the Gateways claiming the same hostnames decide again, as for heldHostnamesOf.
 */
export function heldListenerSetHostnamesOf(set: CachedListenerSet): string {
  const holding = (set.status?.listeners ?? []).flatMap((l) =>
    l.conditions.filter((c) => c.type === 'Conflicted' && c.status === 'False').map((c) => `${l.name}@${c.observedGeneration ?? 0}`),
  );
  return holding.sort().join(',');
}

export function statusGatewaysOf(ise: InternalServiceExport): readonly string[] {
  const status = ise.status;
  return [...new Set([...(status?.privateLinkRequests ?? []), ...(status?.frontDoors ?? [])].map((entry) => entry.gateway))];
}

/**
 * The indexes the Gateway reconcile reads each kind by: the hub's informers and a tool's snapshot (hub-snapshot.ts)
 * index alike, so both select the same inputs.
 */
export const GATEWAY_INDEXERS: Readonly<Record<string, IndexFunction<CachedGateway>>> = {
  [GATEWAYS_BY_CLASS]: gatewayClassOf,
  [GATEWAYS_BY_HOSTNAME]: listenerHostnamesOf,
};
export const ROUTE_INDEXERS: Readonly<Record<string, IndexFunction<CachedHTTPRoute>>> = {
  [ROUTES_BY_PARENT]: parentGatewaysOf,
  [ROUTES_BY_STATUS_PARENT]: statusParentGatewaysOf,
  [ROUTES_BY_BACKEND]: backendServiceImportsOf,
  [ROUTES_BY_PARENT_LISTENER_SET]: parentListenerSetsOf,
  [ROUTES_BY_STATUS_LISTENER_SET]: statusParentListenerSetsOf,
  [ROUTES_WITH_LISTENER_SET_STATUS]: withListenerSetStatusOf,
  [namespaceIndexName]: namespaceIndex,
};
export const LISTENER_SET_INDEXERS: Readonly<Record<string, IndexFunction<CachedListenerSet>>> = {
  [LISTENER_SETS_BY_PARENT]: parentGatewayOfListenerSet,
  [LISTENER_SETS_BY_HOSTNAME]: listenerSetHostnamesOf,
  [namespaceIndexName]: namespaceIndex,
};
