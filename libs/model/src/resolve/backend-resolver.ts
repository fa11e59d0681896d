import { formatAnnotationErrors, KnownSku, parseServiceImportAnnotations, type Sku } from '@fleet-gateway/annotations';
import type { ServiceImport } from '@fleet-gateway/api-types';
import { resolveClusterOrigin, type ClusterOrigin, type GatewayRef } from './cluster-origins.js';
import { decideConnectivity } from './connectivity.js';
import type { InputIndex } from './input-index.js';
import type { BackendAppProtocol, ModelBackend, ModelOrigin, ResolvedConnectivity } from '../model/model-types.js';
import { backendKey } from '../model/names.js';
import { compareText } from '@fleet-gateway/api-types';

export type BackendResolution =
  | { readonly ok: true; readonly backend: ModelBackend; readonly notes: readonly string[] }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly message: string;
      /** A configuration error of the backend itself: its rules keep what was last programmed (fail-static). */
      readonly configurationError?: true;
    };

// AFD speaks HTTP/1.1 to origins, over TLS or not: h2c, WebSocket (kubernetes.io/ws, wss) and the rest it cannot forward.
const FORWARDABLE_APP_PROTOCOLS: readonly BackendAppProtocol[] = ['http', 'https'];

function isForwardableAppProtocol(value: string): value is BackendAppProtocol {
  return (FORWARDABLE_APP_PROTOCOLS as readonly string[]).includes(value);
}

function toModelOrigin(origin: Exclude<ClusterOrigin, { state: 'none' }>, connectivity: ResolvedConnectivity): ModelOrigin {
  if (origin.state === 'unknown') {
    return { cluster: origin.cluster, state: 'unknown', unknownReason: origin.unknownReason, connectivity, source: origin.source };
  }
  const { cluster, exportWeight, source } = origin;
  const pl = connectivity === 'private-link' ? origin.privateLink : undefined;
  if (!pl) return { cluster, state: 'known', exportWeight, connectivity, address: origin.publicAddress, source };
  // The PLS's ILB address becomes the origin address; the rest of the Private Link data travels as is.
  const privateLink = { resourceId: pl.resourceId, location: pl.location, requestMessage: pl.requestMessage, connectionState: pl.connectionState };
  return { cluster, state: 'known', exportWeight, connectivity, address: pl.address, privateLink, source };
}

/** Resolves one ServiceImport port into a backend with its origins, or the reason it cannot serve. */
export function resolveBackend(index: InputIndex, serviceImport: ServiceImport, port: number, sku: Sku | undefined, gateway: GatewayRef): BackendResolution {
  const namespace = serviceImport.metadata.namespace ?? '';
  const name = serviceImport.metadata.name ?? '';
  const label = `ServiceImport ${namespace}/${name}`;
  const config = parseServiceImportAnnotations(serviceImport.metadata.annotations);
  if (!config.ok) {
    return { ok: false, reason: 'InvalidBackendAnnotations', message: `${label}: ${formatAnnotationErrors(config.errors)}`, configurationError: true };
  }
  const ports = (serviceImport.status?.ports ?? []).map((p) => p.port);
  if (!ports.includes(port)) {
    return { ok: false, reason: 'BackendNotFound', message: `port ${port} is not among the ports of ${label} [${ports.join(', ')}]` };
  }
  const appProtocol = serviceImport.status?.ports?.find((p) => p.port === port)?.appProtocol;
  if (appProtocol !== undefined && !isForwardableAppProtocol(appProtocol)) {
    const expected = FORWARDABLE_APP_PROTOCOLS.map((p) => `"${p}"`).join(' or ');
    return {
      ok: false,
      reason: 'UnsupportedProtocol',
      message:
        `${label} port ${port}: appProtocol "${appProtocol}" (status.ports[].appProtocol) is not supported; expected ${expected}, ` +
        'or none (the health probe protocol then decides): AFD forwards to origins over HTTP/1.1 or HTTPS only',
    };
  }
  const clusters = [...new Set((serviceImport.status?.clusters ?? []).map((c) => c.cluster))].sort(compareText);
  const all = clusters.map((c) => resolveClusterOrigin(index, serviceImport, c, port, gateway));
  const usable = all.filter((o): o is Exclude<ClusterOrigin, { state: 'none' }> => o.state !== 'none');
  if (usable.length === 0) {
    const why = all.map((o) => (o.state === 'none' ? `${o.cluster}: ${o.why}` : '')).filter(Boolean);
    return { ok: false, reason: 'NoOrigins', message: `${label} has no cluster that can serve port ${port}${why.length ? ` (${why.join('; ')})` : ''}` };
  }
  const decision = decideConnectivity(config.config.connectivity, usable);
  if (!decision.ok) return { ok: false, reason: decision.reason, message: `${label}: ${decision.message}` };
  if (decision.connectivity === 'private-link' && sku !== undefined && sku !== KnownSku.Premium) {
    return {
      ok: false,
      reason: 'PrivateLinkRequiresPremium',
      message: `${label} resolves to Private Link, which needs a ${KnownSku.Premium} Gateway, not ${sku}`,
    };
  }
  const c = config.config;
  const backend: ModelBackend = {
    key: backendKey(namespace, name, port),
    namespace,
    name,
    port,
    ...(appProtocol !== undefined ? { appProtocol } : {}),
    connectivity: decision.connectivity,
    probe: { path: c.healthProbePath, protocol: c.healthProbeProtocol, requestType: c.healthProbeRequestType, intervalSeconds: c.healthProbeIntervalSeconds },
    latencySensitivityMilliseconds: c.latencySensitivityMilliseconds,
    ...(c.originHostHeader ? { originHostHeader: c.originHostHeader } : {}),
    origins: usable.map((o) => toModelOrigin(o, decision.connectivity)),
    source: { kind: 'ServiceImport', namespace, name },
  };
  const notes = usable
    .filter((o): o is Extract<ClusterOrigin, { state: 'unknown' }> => o.state === 'unknown')
    .map((o) => `cluster ${o.cluster} of ${label} is unknown (${o.unknownReason}); AFD keeps what it last programmed for it`);
  return { ok: true, backend, notes };
}
