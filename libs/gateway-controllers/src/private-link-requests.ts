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
 * The request messages to write before this Gateway's Private Link origins can be planned: one per export whose
 * origin lacks one. AFD shares one private endpoint per profile, PLS and region, so exports behind one PLS share
 * one connection and one message: an existing message of this Gateway for that PLS (on any export) is reused, and
 * new ones are made once per PLS. `newMessage(pls)` is the only source of new messages (tests pass a counter).
 */
export function privateLinkRequestsToIssue(
  model: GlobalGateway,
  gateway: GatewayOwner,
  exportByKey: (key: string) => CachedInternalServiceExport | undefined,
  /** Exports that already carry an entry of this Gateway (the EXPORTS_BY_GATEWAY index). */
  exportsWithRequests: readonly CachedInternalServiceExport[],
  newMessage: (privateLinkService: string) => string,
  now: Date,
): RequestToIssue[] {
  const messageByPls = new Map<string, string>();
  for (const ise of exportsWithRequests) {
    const pls = plsOf(ise);
    const request = requestOf(ise, gateway);
    if (pls && request && !messageByPls.has(pls)) messageByPls.set(pls, request.requestMessage);
  }
  const toIssue = new Map<string, RequestToIssue>();
  for (const backend of model.backends) {
    if (backend.connectivity !== 'private-link') continue;
    for (const origin of backend.origins) {
      if (!origin.privateLink || origin.privateLink.requestMessage) continue;
      const key = `${origin.source.namespace}/${origin.source.name}`;
      const ise = exportByKey(key);
      const pls = ise && plsOf(ise);
      if (!ise || !pls || toIssue.has(key) || requestOf(ise, gateway)) continue;
      let message = messageByPls.get(pls);
      if (!message) {
        message = newMessage(pls);
        messageByPls.set(pls, message);
      }
      toIssue.set(key, { export: ise, request: { gateway: gateway.key, gatewayUID: gateway.uid, requestMessage: message, issuedTime: now.toISOString().replace(/\.\d+Z$/, 'Z') } });
    }
  }
  return [...toIssue.values()];
}
