import type { PrivateLinkRequest } from '@fleet-gateway/api-types';
import type { ConnectionView } from './azure-views.js';
import { checkFrontDoorEndpoint, subscriptionOf } from './front-door-endpoint.js';

/** One hub request for this export, as the hub wrote it on the InternalServiceExport. */
export interface HubRequest {
  readonly gateway: string;
  readonly message: string;
  /** The Private Link Service the hub issued the message for; a message names one service. */
  readonly privateLinkServiceId?: string;
  /** The issuing hub's identity (its ownership tag value), for `--private-link-approval-hubs`. */
  readonly hubIdentity?: string;
  /** When the hub's origin last asked for a connection with this message (created or re-created it). */
  readonly askedTime?: string;
}

/** A request entry of the InternalServiceExport's status, as planApprovals reads it. */
export function hubRequestOf(request: PrivateLinkRequest): HubRequest {
  return {
    gateway: request.gateway,
    message: request.requestMessage,
    ...(request.privateLinkServiceID ? { privateLinkServiceId: request.privateLinkServiceID } : {}),
    ...(request.hubIdentity ? { hubIdentity: request.hubIdentity } : {}),
    ...(request.askedTime ? { askedTime: request.askedTime } : {}),
  };
}

export interface ApprovalPolicy {
  /** When set, only messages of these hubs are honoured (`--private-link-approval-hubs`); case-insensitive. */
  readonly allowedHubs?: readonly string[];
}

export interface PlannedApproval {
  readonly connection: ConnectionView;
  /** The hub-issued message the connection carries; the approval keeps it as its description. */
  readonly message: string;
}

/**
 * Why a connection carrying a hub message is left Pending: `impersonation` when more than one connection that looks
 * like Front Door's carries the message (a copy is indistinguishable from the hub's own), `retired` when the message
 * was already rejected or disconnected, `not-front-door` for another endpoint shape, `not-honoured` for a message of a
 * hub outside the allowlist or issued for another Private Link Service, `fenced` when this replica may not write (its
 * leader Lease is not fresh).
 */
export type RefusalKind = 'impersonation' | 'retired' | 'not-front-door' | 'not-honoured' | 'fenced';

export interface RefusedApproval {
  readonly connection: ConnectionView;
  readonly kind: RefusalKind;
  readonly why: string;
}

export interface ApprovalPlan {
  readonly approve: readonly PlannedApproval[];
  /** Pending connections carrying a hub message that are left Pending, and why (reported, never changed). */
  readonly refused: readonly RefusedApproval[];
}

/**
 * Pure: the Pending connections to approve. A message authorises at most one connection, on the one Private Link
 * Service it was issued for:
 * - What AFD's connection exposes — a private endpoint id in Microsoft's `eafd-Prod-<region>` group with a random
 *   name, the description, the state — names no profile: any Premium profile's origin makes a connection of the same
 *   shape, and the message can be copied by whoever reads the origin or the service. So the shape check narrows, and
 *   uniqueness binds: the hub's origin makes exactly one connection per message (AFD shares one private endpoint per
 *   profile, service and region, and the hub issues one message per Gateway, member and service), so a second
 *   Front Door-shaped connection carrying it is a copy — and which one is the copy cannot be told. With one Approved
 *   already, the Pending one is never approved; two Pending: neither is. Both are reported as a possible
 *   impersonation (the hub's origin then stays Pending, which the hub sees from AFD's side too).
 * - A message once carried by a Rejected or Disconnected connection is retired: the hub issues a new one and its
 *   origin asks again, and the old one approves nothing.
 * - Only messages of the allowed hubs (when an allowlist is set) and for this service count; the hub writes them on
 *   its InternalServiceExport status, which no outsider can write.
 * Every other connection is not in the plan at all: nothing here approves, rejects or deletes it.
 */
export function planApprovals(
  privateLinkServiceId: string,
  connections: readonly ConnectionView[],
  requests: readonly HubRequest[],
  policy: ApprovalPolicy = {},
): ApprovalPlan {
  const subscription = subscriptionOf(privateLinkServiceId);
  const approve: PlannedApproval[] = [];
  const refused: RefusedApproval[] = [];
  const byMessage = new Map<string, HubRequest>();
  for (const request of requests) if (request.message !== '' && !byMessage.has(request.message)) byMessage.set(request.message, request);
  for (const [message, request] of byMessage) {
    const carrying = connections.filter((connection) => connection.description === message);
    const pending = carrying.filter((connection) => connection.status === 'Pending');
    if (pending.length === 0) continue;
    const refuse = (kind: RefusalKind, why: (connection: ConnectionView) => string, which: readonly ConnectionView[] = pending) => {
      for (const connection of which) refused.push({ connection, kind, why: `${why(connection)}; left Pending` });
    };
    const notHonoured = whyNotHonoured(request, privateLinkServiceId, policy);
    if (notHonoured !== undefined) {
      refuse('not-honoured', () => notHonoured);
      continue;
    }
    const shaped: ConnectionView[] = [];
    for (const connection of carrying) {
      const check = checkFrontDoorEndpoint(connection.privateEndpointId, subscription);
      if (check.frontDoor) shaped.push(connection);
      else if (connection.status === 'Pending') refused.push({ connection, kind: 'not-front-door', why: `${check.why}; left Pending` });
    }
    const candidates = shaped.filter((connection) => connection.status === 'Pending');
    if (candidates.length === 0) continue;
    const retired = shaped.find((connection) => connection.status === 'Rejected' || connection.status === 'Disconnected');
    const approved = shaped.find((connection) => connection.status === 'Approved');
    if (retired !== undefined) {
      refuse(
        'retired',
        () => `its message was on connection ${retired.name}, now ${retired.status}: a message approves nothing after that, and the hub issues a new one`,
        candidates,
      );
    } else if (approved !== undefined) {
      refuse(
        'impersonation',
        () => `possible impersonation: its message is already Approved on connection ${approved.name}, and a message authorises one connection`,
        candidates,
      );
    } else if (candidates.length > 1) {
      const names = candidates
        .map((c) => c.name)
        .sort((a, b) => a.localeCompare(b))
        .join(', ');
      refuse(
        'impersonation',
        () => `possible impersonation: connections ${names} carry the same message and only one can be the hub's; none is approved`,
        candidates,
      );
    } else {
      approve.push({ connection: candidates[0]!, message });
    }
  }
  return { approve, refused };
}

function whyNotHonoured(request: HubRequest, privateLinkServiceId: string, policy: ApprovalPolicy): string | undefined {
  if (request.privateLinkServiceId !== undefined && request.privateLinkServiceId.toLowerCase() !== privateLinkServiceId.toLowerCase()) {
    return `the hub issued its message for Private Link Service ${request.privateLinkServiceId}, not this one`;
  }
  const allowed = policy.allowedHubs;
  if (allowed === undefined) return undefined;
  if (request.hubIdentity === undefined) return 'its message names no issuing hub, and --private-link-approval-hubs honours only the listed hubs';
  if (!allowed.some((hub) => hub.toLowerCase() === request.hubIdentity!.toLowerCase())) {
    return `its message was issued by hub ${request.hubIdentity}, which --private-link-approval-hubs does not list`;
  }
  return undefined;
}

/** The connection's ARM id (the Private Link Service's id + `/privateEndpointConnections/<name>`). */
export function connectionIdOf(privateLinkServiceId: string, connectionName: string): string {
  return `${privateLinkServiceId}/privateEndpointConnections/${connectionName}`;
}

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** Pure: the command an operator runs in manual mode to approve one connection, keeping the hub's message. */
export function manualApprovalCommand(connectionId: string, requestMessage: string): string {
  return `az network private-endpoint-connection approve --id ${shellQuote(connectionId)} --description ${shellQuote(requestMessage)}`;
}
