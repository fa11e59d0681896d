import type { Sku } from '@fleet-gateway/annotations';
import type { HTTPBackendRef, HTTPRoute } from '@fleet-gateway/api-types';
import { resolveBackend, type BackendResolution } from './backend-resolver.js';
import type { GatewayRef } from './cluster-origins.js';
import type { InputIndex } from './input-index.js';
import { backendKey, FLEET_NETWORKING_GROUP, GATEWAY_GROUP } from '../model/names.js';

export type RefResolution =
  { readonly ok: true; readonly key: string; readonly weight: number; readonly notes: readonly string[] } | Extract<BackendResolution, { ok: false }>;

export interface BackendRefResolver {
  resolve(route: HTTPRoute, ref: HTTPBackendRef): RefResolution;
  /** Every backend some reference resolved to, keyed by `namespace/name:port`. */
  readonly backends: ReadonlyMap<string, Extract<BackendResolution, { ok: true }>['backend']>;
}

function permitted(index: InputIndex, fromNamespace: string, toNamespace: string, name: string): boolean {
  return index
    .referenceGrants(toNamespace)
    .some(
      (grant) =>
        (grant.spec?.from ?? []).some((f) => f.group === GATEWAY_GROUP && f.kind === 'HTTPRoute' && f.namespace === fromNamespace) &&
        (grant.spec?.to ?? []).some((t) => t.group === FLEET_NETWORKING_GROUP && t.kind === 'ServiceImport' && (!t.name || t.name === name)),
    );
}

/**
 * Resolves backendRefs, resolving each distinct ServiceImport port once however many rules share it. `sku` is
 * undefined when the Gateway's SKU annotation is invalid: the Premium check then waits for a valid one.
 */
export function backendRefResolver(index: InputIndex, sku: Sku | undefined, gateway: GatewayRef): BackendRefResolver {
  const cache = new Map<string, BackendResolution>();
  const backends = new Map<string, Extract<BackendResolution, { ok: true }>['backend']>();
  const resolve = (route: HTTPRoute, ref: HTTPBackendRef): RefResolution => {
    const routeNamespace = route.metadata.namespace ?? '';
    const group = ref.group ?? '';
    const kind = ref.kind ?? 'Service';
    const namespace = ref.namespace ?? routeNamespace;
    const label = `${kind} ${namespace}/${ref.name}`;
    if (group !== FLEET_NETWORKING_GROUP || kind !== 'ServiceImport') {
      return {
        ok: false,
        reason: 'InvalidKind',
        message: `backendRef ${group || 'core'}/${kind} ${ref.name} is not supported; only ${FLEET_NETWORKING_GROUP}/ServiceImport`,
      };
    }
    if (namespace !== routeNamespace && !permitted(index, routeNamespace, namespace, ref.name)) {
      return {
        ok: false,
        reason: 'RefNotPermitted',
        message: `no ReferenceGrant in namespace ${namespace} allows HTTPRoutes from ${routeNamespace} to reference ${label}`,
      };
    }
    const serviceImport = index.serviceImport(namespace, ref.name);
    if (!serviceImport) return { ok: false, reason: 'BackendNotFound', message: `${label} not found` };
    const ports = serviceImport.status?.ports ?? [];
    const port = ref.port ?? (ports.length === 1 ? ports[0]?.port : undefined);
    if (port === undefined) {
      return { ok: false, reason: 'BackendNotFound', message: `backendRef to ${label} needs a port: it has ${ports.length} ports` };
    }
    const key = backendKey(namespace, ref.name, port);
    let resolution = cache.get(key);
    if (!resolution) {
      resolution = resolveBackend(index, serviceImport, port, sku, gateway);
      cache.set(key, resolution);
      if (resolution.ok) backends.set(key, resolution.backend);
    }
    if (!resolution.ok) return resolution;
    return { ok: true, key, weight: ref.weight ?? 1, notes: resolution.notes };
  };
  return { resolve, backends };
}
