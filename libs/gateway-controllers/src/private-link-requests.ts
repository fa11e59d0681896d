import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import type { CachedInternalServiceExport } from '@fleet-gateway/fleet-hub';
import type { GlobalGateway } from '@fleet-gateway/model';

export type PrivateLinkRequest = NonNullable<NonNullable<CachedInternalServiceExport['status']>['privateLinkRequests']>[number];

export interface RequestToIssue {
  readonly export: CachedInternalServiceExport;
  readonly request: PrivateLinkRequest;
}

export interface GatewayOwner {
  readonly key: string;
  readonly uid: string;
}

export function requestOf(ise: CachedInternalServiceExport, gateway: GatewayOwner): PrivateLinkRequest | undefined {
  return (ise.status?.privateLinkRequests ?? []).find((r) => r.gateway === gateway.key && (!r.gatewayUID || r.gatewayUID === gateway.uid));
}

function plsOf(ise: CachedInternalServiceExport): string | undefined {
  return ise.spec?.privateLinkService?.resourceID.toLowerCase();
}

/**
 * Whether the member reports the message spent: a connection carrying it was Rejected or Disconnected and none carrying
 * it is Approved. The member approves nothing with such a message again, so the hub issues a new one and the origin
 * asks again. A connection carrying it that is Approved keeps it (a stray rejected copy must not unseat a working
 * connection).
 */
export function isRetired(ise: CachedInternalServiceExport, message: string): boolean {
  const carrying = (ise.spec?.privateEndpointConnections ?? []).filter((c) => c.description === message);
  return carrying.some((c) => c.status === 'Rejected' || c.status === 'Disconnected') && !carrying.some((c) => c.status === 'Approved');
}

/**
 * This Gateway's request on the export when it stands as it should: not retired, naming the export's Private Link
 * Service and (when given) this hub. Anything else is issued again — a new message when retired, the same one with
 * the binding fields otherwise.
 */
export function currentRequestOf(ise: CachedInternalServiceExport, gateway: GatewayOwner, hubIdentity?: string): PrivateLinkRequest | undefined {
  const request = requestOf(ise, gateway);
  if (!request || isRetired(ise, request.requestMessage)) return undefined;
  const pls = ise.spec?.privateLinkService?.resourceID;
  if (pls !== undefined && request.privateLinkServiceID?.toLowerCase() !== pls.toLowerCase()) return undefined;
  if (hubIdentity !== undefined && request.hubIdentity !== hubIdentity) return undefined;
  return request;
}

/**
 * The request messages to write before this Gateway's Private Link origins can be planned. A message belongs to one
 * (Gateway, member cluster, PLS): AFD shares one private endpoint per profile, PLS and region, so exports of one member
 * behind one PLS share one connection and one message (an existing one is reused), while another member never gets
 * it, even if it reports the same PLS id. Each entry names the PLS and the issuing hub, which the member checks. A
 * retired message is replaced by a new one. `newMessage(key)` is the only source of new messages (tests pass a
 * counter); its key names the member, the PLS and the message it replaces, so a cache of it never hands out a
 * retired message again.
 */
export function privateLinkRequestsToIssue(
  model: GlobalGateway,
  gateway: GatewayOwner,
  exportByKey: (key: string) => CachedInternalServiceExport | undefined,
  /** Exports that already carry an entry of this Gateway (the EXPORTS_BY_GATEWAY index). */
  exportsWithRequests: readonly CachedInternalServiceExport[],
  newMessage: (connectionKey: string) => string,
  now: Date,
  hubIdentity?: string,
): RequestToIssue[] {
  const connectionOf = (ise: CachedInternalServiceExport, pls: string) => `${ise.metadata.namespace ?? ''}|${pls}`;
  const messageByConnection = new Map<string, string>();
  for (const ise of exportsWithRequests) {
    const pls = plsOf(ise);
    const request = requestOf(ise, gateway);
    const key = pls && connectionOf(ise, pls);
    if (key && request && !isRetired(ise, request.requestMessage) && !messageByConnection.has(key)) messageByConnection.set(key, request.requestMessage);
  }
  const toIssue = new Map<string, RequestToIssue>();
  for (const backend of model.backends) {
    if (backend.connectivity !== 'private-link') continue;
    for (const origin of backend.origins) {
      if (!origin.privateLink) continue;
      const key = `${origin.source.namespace}/${origin.source.name}`;
      const ise = exportByKey(key);
      const pls = ise && plsOf(ise);
      if (!ise || !pls || toIssue.has(key) || currentRequestOf(ise, gateway, hubIdentity)) continue;
      const existing = requestOf(ise, gateway);
      const connection = connectionOf(ise, pls);
      let message = existing && !isRetired(ise, existing.requestMessage) ? existing.requestMessage : messageByConnection.get(connection);
      if (!message) {
        message = newMessage(`${connection}|${existing?.requestMessage ?? ''}`);
        messageByConnection.set(connection, message);
      }
      const request: PrivateLinkRequest = {
        gateway: gateway.key,
        gatewayUID: gateway.uid,
        requestMessage: message,
        issuedTime: message === existing?.requestMessage && existing.issuedTime ? existing.issuedTime : timestamp(now),
        privateLinkServiceID: ise.spec?.privateLinkService?.resourceID ?? pls,
        ...(hubIdentity !== undefined ? { hubIdentity } : {}),
      };
      toIssue.set(key, { export: ise, request });
    }
  }
  return [...toIssue.values()];
}

/**
 * The request entries to mark with `askedTime` because this reconcile created the export's Private Link origin — a
 * first ask, or a re-creation after the origin was deleted: AFD's new connection is on its way while the member may
 * still list the old one, and a new `askedTime` makes it re-read the service's connections at once instead of after
 * its lists' TTL. Exports whose cached entry is not (yet) this Gateway's current request are left alone.
 */
export function requestsAskedAgain(
  report: Pick<ReconcileReport, 'resources'>,
  gateway: GatewayOwner,
  exportByKey: (key: string) => CachedInternalServiceExport | undefined,
  now: Date,
  hubIdentity?: string,
): RequestToIssue[] {
  const created = report.resources.filter((r) => r.kind === 'origin' && r.action === 'created');
  const keys = new Set(created.flatMap((r) => r.provenance.filter((s) => s.kind === 'InternalServiceExport').map((s) => `${s.namespace}/${s.name}`)));
  return [...keys].sort().flatMap((key) => {
    const ise = exportByKey(key);
    const request = ise && currentRequestOf(ise, gateway, hubIdentity);
    return ise && request ? [{ export: ise, request: { ...request, askedTime: timestamp(now) } }] : [];
  });
}

const timestamp = (now: Date): string => now.toISOString().replace(/\.\d+Z$/, 'Z');
