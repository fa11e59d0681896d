import type { ConnectionView } from './azure-views.js';
import { checkFrontDoorEndpoint, subscriptionOf } from './front-door-endpoint.js';

export interface PlannedApproval {
  readonly connection: ConnectionView;
  /** The hub-issued message the connection carries; the approval keeps it as its description. */
  readonly message: string;
}

export interface RefusedApproval {
  readonly connection: ConnectionView;
  readonly why: string;
}

export interface ApprovalPlan {
  readonly approve: readonly PlannedApproval[];
  /** Pending connections carrying a hub message that are left Pending, and why (reported, never changed). */
  readonly refused: readonly RefusedApproval[];
}

/**
 * Pure: the Pending connections to approve — exactly those whose description equals a request message the hub issued
 * for this export and whose private endpoint is Front Door's. Every other connection (foreign, Approved, Rejected)
 * is not in the plan at all: nothing here approves, rejects or deletes it.
 */
export function planApprovals(privateLinkServiceId: string, connections: readonly ConnectionView[], requestMessages: readonly string[]): ApprovalPlan {
  const messages = new Set(requestMessages.filter((message) => message !== ''));
  const subscription = subscriptionOf(privateLinkServiceId);
  const approve: PlannedApproval[] = [];
  const refused: RefusedApproval[] = [];
  for (const connection of connections) {
    if (connection.status !== 'Pending' || !messages.has(connection.description)) continue;
    const check = checkFrontDoorEndpoint(connection.privateEndpointId, subscription);
    if (check.frontDoor) approve.push({ connection, message: connection.description });
    else refused.push({ connection, why: `${check.why}; left Pending` });
  }
  return { approve, refused };
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
