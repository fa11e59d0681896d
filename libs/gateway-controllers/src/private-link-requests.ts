import type { ReconcileReport, ResourceReport } from '@fleet-gateway/azure-frontdoor';
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

/** What binds this hub's requests: its identity, and what AFD last said of its origins' connections. */
export interface RequestBinding {
  readonly hubIdentity?: string;
  /** Whether AFD reported the connection of this export's origin, asked with this message, Rejected or Disconnected. */
  readonly retiredByAfd?: (exportKey: string, message: string) => boolean;
}

const exportKeyOf = (ise: CachedInternalServiceExport): string => `${ise.metadata.namespace ?? ''}/${ise.metadata.name}`;

/**
 * Whether the message is spent: AFD reports the origin's connection Rejected or Disconnected (rejected, or deleted on
 * the service: AFD does not ask again by itself), or the member reports a connection carrying it Rejected or
 * Disconnected and none Approved. The member approves nothing with such a message again, so the hub issues a new one
 * and the origin asks again. A connection carrying it that is Approved keeps it (a stray rejected copy must not
 * unseat a working connection).
 */
export function isRetired(ise: CachedInternalServiceExport, message: string, binding: RequestBinding = {}): boolean {
  if (binding.retiredByAfd?.(exportKeyOf(ise), message)) return true;
  const carrying = (ise.spec?.privateEndpointConnections ?? []).filter((c) => c.description === message);
  return carrying.some((c) => c.status === 'Rejected' || c.status === 'Disconnected') && !carrying.some((c) => c.status === 'Approved');
}

/**
 * This Gateway's request on the export when it stands as it should: not retired, naming the export's Private Link
 * Service and (when given) this hub. Anything else is issued again — a new message when retired, the same one with
 * the binding fields otherwise.
 */
export function currentRequestOf(ise: CachedInternalServiceExport, gateway: GatewayOwner, binding: RequestBinding = {}): PrivateLinkRequest | undefined {
  const { hubIdentity } = binding;
  const request = requestOf(ise, gateway);
  if (!request || isRetired(ise, request.requestMessage, binding)) return undefined;
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
  binding: RequestBinding = {},
): RequestToIssue[] {
  const { hubIdentity } = binding;
  const connectionOf = (ise: CachedInternalServiceExport, pls: string) => `${ise.metadata.namespace ?? ''}|${pls}`;
  const messageByConnection = new Map<string, string>();
  for (const ise of exportsWithRequests) {
    const pls = plsOf(ise);
    const request = requestOf(ise, gateway);
    const key = pls && connectionOf(ise, pls);
    if (key && request && !isRetired(ise, request.requestMessage, binding) && !messageByConnection.has(key))
      messageByConnection.set(key, request.requestMessage);
  }
  const toIssue = new Map<string, RequestToIssue>();
  for (const backend of model.backends) {
    if (backend.connectivity !== 'private-link') continue;
    for (const origin of backend.origins) {
      if (!origin.privateLink) continue;
      const key = `${origin.source.namespace}/${origin.source.name}`;
      const ise = exportByKey(key);
      const pls = ise && plsOf(ise);
      if (!ise || !pls || toIssue.has(key) || currentRequestOf(ise, gateway, binding)) continue;
      const existing = requestOf(ise, gateway);
      const connection = connectionOf(ise, pls);
      let message = existing && !isRetired(ise, existing.requestMessage, binding) ? existing.requestMessage : messageByConnection.get(connection);
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
  binding: RequestBinding = {},
): RequestToIssue[] {
  const keys = exportsOfOrigins(report, (r) => r.action === 'created');
  return keys.flatMap((key) => {
    const ise = exportByKey(key);
    const request = ise && currentRequestOf(ise, gateway, binding);
    return ise && request ? [{ export: ise, request: { ...request, askedTime: timestamp(now) } }] : [];
  });
}

const timestamp = (now: Date): string => now.toISOString().replace(/\.\d+Z$/, 'Z');

/** The exports (`<namespace>/<name>`) whose origins in the report match. */
function exportsOfOrigins(report: Pick<ReconcileReport, 'resources'>, matches: (origin: ResourceReport) => boolean): string[] {
  const origins = report.resources.filter((r) => r.kind === 'origin' && matches(r));
  return [...new Set(origins.flatMap((r) => r.provenance.filter((s) => s.kind === 'InternalServiceExport').map((s) => `${s.namespace}/${s.name}`)))].sort();
}

/**
 * Per Gateway, the request messages whose origin AFD last reported Rejected or Disconnected, by export. Read from each
 * reconcile's report and used by the next issuing; kept in memory only, since a Gateway waiting on Private Link is
 * never served from the programmed cache: after a restart, its first reconcile reads AFD again.
 */
export class AfdRetiredMessages {
  private readonly byGateway = new Map<string, ReadonlyMap<string, string>>();

  record(gateway: GatewayOwner, report: Pick<ReconcileReport, 'resources'>, exportByKey: (key: string) => CachedInternalServiceExport | undefined): void {
    const retired = new Map<string, string>();
    for (const key of exportsOfOrigins(report, (r) => r.privateLinkStatus === 'Rejected' || r.privateLinkStatus === 'Disconnected')) {
      const ise = exportByKey(key);
      const request = ise && requestOf(ise, gateway);
      if (request) retired.set(key, request.requestMessage);
    }
    if (retired.size > 0) this.byGateway.set(gateway.uid, retired);
    else this.byGateway.delete(gateway.uid);
  }

  /** The predicate for `RequestBinding.retiredByAfd`. */
  of(gateway: GatewayOwner): (exportKey: string, message: string) => boolean {
    const retired = this.byGateway.get(gateway.uid);
    return (exportKey, message) => retired?.get(exportKey) === message;
  }

  forget(gateway: GatewayOwner): void {
    this.byGateway.delete(gateway.uid);
  }
}
