import type { InternalServiceExport, ServiceImport } from '@fleet-gateway/api-types';
import type { InputIndex } from './input-index.js';
import type { PrivateLinkConnectionState, SourceRef } from '../model/model-types.js';
import { memberNamespace, namespacedName } from '../model/names.js';
import { compareText } from '@fleet-gateway/api-types';

export interface PrivateLinkData {
  readonly resourceId: string;
  readonly location: string;
  readonly address: string;
  readonly requestMessage?: string;
  readonly connectionState: PrivateLinkConnectionState;
}

/** What one cluster of a ServiceImport offers for one port, before connectivity is chosen. */
export type ClusterOrigin =
  | {
      readonly cluster: string;
      readonly state: 'known';
      readonly exportWeight: number;
      readonly privateLink?: PrivateLinkData;
      readonly publicAddress?: string;
      readonly source: SourceRef;
    }
  | { readonly cluster: string; readonly state: 'unknown'; readonly unknownReason: string; readonly source: SourceRef }
  /** An explicit unexport (weight 0, or the export is being deleted): no origin at all. */
  | { readonly cluster: string; readonly state: 'none'; readonly why: string };

export interface GatewayRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

function connectionState(ise: InternalServiceExport, gateway: GatewayRef): Pick<PrivateLinkData, 'requestMessage' | 'connectionState'> {
  const request = (ise.status?.privateLinkRequests ?? []).find(
    (r) => r.gateway === namespacedName(gateway.namespace, gateway.name) && (!r.gatewayUID || r.gatewayUID === gateway.uid),
  );
  if (!request) return { connectionState: 'NotRequested' };
  const connection = [...(ise.spec?.privateEndpointConnections ?? [])]
    .sort((a, b) => compareText(a.name, b.name))
    .find((c) => c.description === request.requestMessage);
  return { requestMessage: request.requestMessage, connectionState: connection?.status ?? 'AwaitingConnection' };
}

function knownOrigin(
  cluster: string,
  ise: InternalServiceExport,
  spec: NonNullable<InternalServiceExport['spec']>,
  gateway: GatewayRef,
  source: SourceRef,
): ClusterOrigin {
  const pls = spec.privateLinkService;
  const privateLink =
    pls && spec.internalLoadBalancerIP
      ? { resourceId: pls.resourceID, location: pls.location, address: spec.internalLoadBalancerIP, ...connectionState(ise, gateway) }
      : undefined;
  return {
    cluster,
    state: 'known',
    exportWeight: spec.weight ?? 1,
    privateLink,
    publicAddress: spec.publicAddress,
    source,
  };
}

/**
 * Reads one cluster's export. Missing, stale or never-reported member data is unknown (fail-static: the provider
 * keeps what it last programmed); weight 0 and deletion are explicit unexports.
 */
export function resolveClusterOrigin(index: InputIndex, serviceImport: ServiceImport, cluster: string, port: number, gateway: GatewayRef): ClusterOrigin {
  const namespace = serviceImport.metadata.namespace ?? '';
  const name = serviceImport.metadata.name ?? '';
  const ise = index.internalServiceExport(cluster, namespace, name);
  const source: SourceRef = { kind: 'InternalServiceExport', namespace: memberNamespace(cluster), name: ise?.metadata.name ?? `${namespace}-${name}` };
  const unknown = (unknownReason: string): ClusterOrigin => ({ cluster, state: 'unknown', unknownReason, source });
  const spec = ise?.spec;
  if (!ise || !spec) return unknown('no InternalServiceExport from the member');
  if (ise.metadata.deletionTimestamp) return { cluster, state: 'none', why: 'its export is being deleted' };
  if (spec.weight === 0) return { cluster, state: 'none', why: 'its ServiceExport weight is 0' };
  // The CRD (like upstream's) does not bound the weight, so a value outside the annotation's range is bad member data.
  if (spec.weight !== undefined && !(Number.isInteger(spec.weight) && spec.weight > 0 && spec.weight <= 1000)) {
    return unknown(`its export weight ${spec.weight} is outside 0..1000`);
  }
  if (spec.azureDataStale) return unknown('the member marked its Azure data stale');
  if (!spec.azureObservedTime) return unknown('the member has not reported Azure data');
  if (!spec.ports.some((p) => p.port === port)) return unknown(`its export does not list port ${port}`);
  return knownOrigin(cluster, ise, spec, gateway, source);
}
