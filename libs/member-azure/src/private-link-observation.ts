import type { PrivateLinkRequest } from '@fleet-gateway/api-types';
import {
  ADDRESS_RECHECK_MS,
  AZURE_DATA_CURRENT_CONDITION,
  CONNECTIONS_APPROVED_CONDITION,
  ORIGIN_FIELD_KEYS,
  ORIGIN_PUBLISHED_CONDITION,
  ORIGIN_REASONS,
  type OriginCondition,
  type OriginEvent,
  type OriginFields,
  type OriginObservation,
} from '@fleet-gateway/member-export';
import type { ArmFailure } from '@fleet-gateway/arm-runtime';
import { resourceGroupOf, type ConnectionView } from './azure-views.js';
import { frontDoorConnections } from './front-door-endpoint.js';
import { connectionIdOf, hubRequestOf, manualApprovalCommand, planApprovals, type ApprovalPolicy, type RefusedApproval } from './plan-approvals.js';
import type { ApprovalResult, DiscoveryResult, PublishedPrivateLink } from './private-link-discovery.js';
import type { UnknownReason } from './service-facts.js';

export const PRIVATE_LINK_REASONS = {
  published: 'PrivateLinkServicePublished',
  dataRead: 'AzureDataRead',
  readFailed: 'AzureReadFailed',
  approved: 'ConnectionsApproved',
  awaitingConnection: 'AwaitingConnection',
  manualApproval: 'ManualApprovalRequired',
  refused: 'ApprovalRefused',
  possibleImpersonation: 'PossibleImpersonation',
  approvalFailed: 'ApprovalFailed',
  rejected: 'ConnectionRejected',
} as const;

export const PRIVATE_LINK_EVENT_REASONS = {
  approved: 'PrivateLinkConnectionApproved',
  possibleImpersonation: 'PrivateLinkPossibleImpersonation',
  published: 'PrivateLinkServicePublished',
} as const;

/** `OriginPublished` reasons for each way discovery can come back empty; the address one is the public origin's. */
const UNKNOWN_REASONS: Readonly<Record<UnknownReason, string>> = {
  NotInternal: 'NotAnInternalLoadBalancer',
  PrivateLinkNotRequested: 'PrivateLinkNotRequested',
  AddressPending: ORIGIN_REASONS.addressPending,
  LoadBalancerNotFound: 'LoadBalancerNotFound',
  FrontendNotFound: 'LoadBalancerFrontendNotFound',
  PrivateLinkServiceNotFound: 'PrivateLinkServiceNotFound',
  PrivateLinkServiceNameMismatch: 'PrivateLinkServiceNameMismatch',
  PrivateLinkServiceNotReady: 'PrivateLinkServiceNotReady',
  AzureReadFailed: PRIVATE_LINK_REASONS.readFailed,
};

export interface PrivateLinkObservationInputs {
  /** `<namespace>/<name>` of the Service. */
  readonly serviceKey: string;
  /** `<hub namespace>/<name>` of its InternalServiceExport, for messages. */
  readonly hubExportRef: string;
  readonly result: DiscoveryResult;
  /** The hub's request messages for this export (InternalServiceExport status), one per Gateway. */
  readonly requests: readonly PrivateLinkRequest[];
  /** Which hubs' messages count (--private-link-approval-hubs); default: every message on the export. */
  readonly policy?: ApprovalPolicy;
  /** Set when this agent approves connections itself (--approve-private-link-connections) and tried now. */
  readonly approval?: ApprovalResult;
  /** What the InternalServiceExport carries now: kept, marked stale, when Azure could not be read (fail-static). */
  readonly published: OriginFields;
  /** The InternalServiceExport's azureObservedTime: when the kept values were read. */
  readonly publishedAt?: string;
  /** The node resource group: a refused write there is most likely its lockdown. */
  readonly nodeResourceGroup: string;
}

/**
 * Pure: what to publish for an internal load balancer Service, and what to say on its ServiceExport, from one
 * discovery (and approval) outcome. A failed Azure read never clears what was published: the last values stay, marked
 * stale, which the hub treats as missing information. No Private Link Service never means a public origin.
 */
export function privateLinkObservation(inputs: PrivateLinkObservationInputs): OriginObservation {
  const { result } = inputs;
  if (result.state === 'found') return foundObservation(inputs, result);
  const condition = (reason: string, message: string): OriginCondition => ({ type: ORIGIN_PUBLISHED_CONDITION, status: 'Unknown', reason, message });
  const failed = result.reason === 'AzureReadFailed' || result.stale !== undefined;
  const recheckMs = result.requeueAfterMs ?? (result.reason === 'AddressPending' ? ADDRESS_RECHECK_MS : undefined);
  const recheck = recheckMs === undefined ? {} : { recheck: { afterMs: atLeastSoon(recheckMs), reason: result.message } };
  if (failed && hasOrigin(inputs.published)) {
    const since = result.stale ? ` since ${result.stale.since.toISOString()}` : '';
    const kept = `InternalServiceExport ${inputs.hubExportRef} keeps the values last read${inputs.publishedAt ? ` (${inputs.publishedAt})` : ''}, marked stale`;
    return {
      fields: { ...inputs.published, azureDataStale: true },
      conditions: [
        condition(UNKNOWN_REASONS[result.reason], `${result.message}; ${kept}`),
        {
          type: AZURE_DATA_CURRENT_CONDITION,
          status: 'False',
          reason: PRIVATE_LINK_REASONS.readFailed,
          message: `Azure could not be read${since}: ${result.message}; ${kept}, and the read is retried with backoff`,
        },
      ],
      ...recheck,
    };
  }
  return {
    fields: {},
    conditions: [condition(UNKNOWN_REASONS[result.reason], `${result.message}; InternalServiceExport ${inputs.hubExportRef} carries no origin for it`)],
    ...recheck,
  };
}

function foundObservation(inputs: PrivateLinkObservationInputs, result: PublishedPrivateLink): OriginObservation {
  const pls = result.privateLinkService;
  const frontDoor = frontDoorConnections(pls.id, result.connections).sort((a, b) => a.name.localeCompare(b.name));
  const fields: OriginFields = {
    internalLoadBalancerIP: pls.internalAddress,
    privateLinkService: { resourceID: pls.id, location: pls.location, ...(pls.alias ? { alias: pls.alias } : {}) },
    // Only Front Door's connections: another party's descriptions are none of the hub's business, and a copied
    // request message on a foreign endpoint must not read as the hub's connection.
    privateEndpointConnections: frontDoor.map((c) => ({ name: c.name, status: c.status, description: c.description, privateEndpointID: c.privateEndpointId })),
    ...(result.stale ? { azureDataStale: true } : {}),
  };
  const conditions: OriginCondition[] = [
    {
      type: ORIGIN_PUBLISHED_CONDITION,
      status: 'True',
      reason: PRIVATE_LINK_REASONS.published,
      message: `Private Link Service ${pls.name} (${pls.location}${pls.alias ? `, alias ${pls.alias}` : ''}) on internal load balancer address ${pls.internalAddress} is published on InternalServiceExport ${inputs.hubExportRef}`,
    },
    result.stale
      ? {
          type: AZURE_DATA_CURRENT_CONDITION,
          status: 'False',
          reason: PRIVATE_LINK_REASONS.readFailed,
          message: `Azure could not be read since ${result.stale.since.toISOString()} (${result.stale.failure.code}: ${result.stale.failure.cause}); the values read at ${result.connectionsReadAt.toISOString()} stay published, marked stale, and the read is retried with backoff`,
        }
      : {
          type: AZURE_DATA_CURRENT_CONDITION,
          status: 'True',
          reason: PRIVATE_LINK_REASONS.dataRead,
          message: 'the published Azure data was read without error',
        },
  ];
  const approvals = approvalCondition(inputs, result, frontDoor);
  if (approvals) conditions.push(approvals.condition);
  const events: OriginEvent[] = (inputs.approval?.approved ?? []).map((name) => ({
    type: 'Normal',
    reason: PRIVATE_LINK_EVENT_REASONS.approved,
    note: `Approved private endpoint connection ${name} on Private Link Service ${pls.name}: it carries a request message the hub issued`,
  }));
  // Repeated each reconcile while it lasts: the event recorder folds repeats into one Event's series.
  for (const suspect of approvals?.impersonations ?? []) {
    events.push({
      type: 'Warning',
      reason: PRIVATE_LINK_EVENT_REASONS.possibleImpersonation,
      note: `Left private endpoint connection ${suspect.connection.name} on Private Link Service ${pls.name} Pending: ${suspect.why}`,
    });
  }
  const recheckMs = [result.requeueAfterMs, approvals?.retryMs].filter((ms): ms is number => ms !== undefined);
  return {
    fields,
    conditions,
    ...(events.length > 0 ? { events } : {}),
    ...(recheckMs.length > 0
      ? { recheck: { afterMs: atLeastSoon(Math.min(...recheckMs)), reason: approvals?.condition.message ?? 'Azure data to re-read' } }
      : {}),
  };
}

/** A read that is due now is looked at again shortly: a requeue needs a delay, and a due read is no reason to spin. */
const atLeastSoon = (ms: number): number => Math.max(100, ms);

/** How soon a failed approval is tried again (the connection stays Pending meanwhile; AFD waits for it). */
const APPROVAL_RETRY_MS = 30_000;

type GatewayState =
  | { readonly kind: 'approved'; readonly connection: ConnectionView }
  | { readonly kind: 'pending'; readonly connection: ConnectionView }
  | { readonly kind: 'rejected'; readonly connection: ConnectionView }
  | { readonly kind: 'awaiting' };

/** The approval condition, present once the hub asked for at least one connection on this export. */
function approvalCondition(
  inputs: PrivateLinkObservationInputs,
  result: PublishedPrivateLink,
  frontDoor: readonly ConnectionView[],
): { condition: OriginCondition; retryMs?: number; impersonations: readonly RefusedApproval[] } | undefined {
  const requests = [...inputs.requests].filter((r) => r.requestMessage !== '').sort((a, b) => a.gateway.localeCompare(b.gateway));
  if (requests.length === 0) return undefined;
  const pls = result.privateLinkService;
  const approving = inputs.approval !== undefined;
  // In manual mode the plan is only read for what it refuses (a copied message, one on an endpoint that is not Front
  // Door's, one this agent does not honour): the operator is told not to approve those either.
  const refused: readonly RefusedApproval[] =
    inputs.approval?.refused ?? planApprovals(pls.id, result.connections, requests.map(hubRequestOf), inputs.policy).refused;
  const failures = inputs.approval?.failures ?? [];
  const lines: string[] = [];
  let reason: string = PRIVATE_LINK_REASONS.approved;
  const escalate = (next: string) => {
    if (REASON_ORDER.indexOf(next) > REASON_ORDER.indexOf(reason)) reason = next;
  };
  const told = new Set<string>();
  const tell = (r: RefusedApproval, line: string) => {
    told.add(r.connection.name);
    escalate(
      r.kind === 'impersonation'
        ? PRIVATE_LINK_REASONS.possibleImpersonation
        : r.kind === 'retired'
          ? PRIVATE_LINK_REASONS.rejected
          : PRIVATE_LINK_REASONS.refused,
    );
    lines.push(line);
  };
  for (const request of requests) {
    const state = gatewayState(frontDoor, request.requestMessage);
    const gateway = `Gateway ${request.gateway}`;
    if (state.kind === 'approved') lines.push(`${gateway}: connection ${state.connection.name} Approved`);
    else if (state.kind === 'rejected') {
      escalate(PRIVATE_LINK_REASONS.rejected);
      lines.push(
        `${gateway}: connection ${state.connection.name} is ${state.connection.status}, and this agent never approves a connection that someone rejected or removed`,
      );
    } else if (state.kind === 'pending') {
      const name = state.connection.name;
      const refusal = refused.find((r) => r.connection.name === name);
      const failure = failures.find((f) => f.name === name);
      if (refusal) tell(refusal, `${gateway}: connection ${name} is Pending: ${refusal.why}`);
      else if (failure) {
        escalate(PRIVATE_LINK_REASONS.approvalFailed);
        lines.push(
          `${gateway}: approving connection ${name} failed (${failure.failure.code}: ${failure.failure.cause})${lockdownHint(failure.failure, pls.id, inputs.nodeResourceGroup)}; retrying`,
        );
      } else if (!approving) {
        escalate(PRIVATE_LINK_REASONS.manualApproval);
        lines.push(
          `${gateway}: connection ${name} is Pending; approve it with: ${manualApprovalCommand(connectionIdOf(pls.id, name), request.requestMessage)}`,
        );
      } else {
        // Approving, with neither refusal nor failure: the approval was planned on connections read before a change.
        escalate(PRIVATE_LINK_REASONS.awaitingConnection);
        lines.push(`${gateway}: connection ${name} is Pending; its approval is planned again at the next reconcile`);
      }
    } else {
      escalate(PRIVATE_LINK_REASONS.awaitingConnection);
      lines.push(`${gateway}: Front Door's connection has not appeared on Private Link Service ${pls.name} yet`);
    }
  }
  for (const r of refused) if (!told.has(r.connection.name)) tell(r, `connection ${r.connection.name} carries a hub request message but ${r.why}`);
  const status = reason === PRIVATE_LINK_REASONS.approved ? 'True' : 'False';
  return {
    condition: { type: CONNECTIONS_APPROVED_CONDITION, status, reason, message: lines.join('; ') },
    ...(reason === PRIVATE_LINK_REASONS.approvalFailed ? { retryMs: APPROVAL_RETRY_MS } : {}),
    impersonations: refused.filter((r) => r.kind === 'impersonation'),
  };
}

/** The reason the condition shows is the worst of its Gateways': an operator acts on a failure before a wait. */
const REASON_ORDER: readonly string[] = [
  PRIVATE_LINK_REASONS.approved,
  PRIVATE_LINK_REASONS.awaitingConnection,
  PRIVATE_LINK_REASONS.rejected,
  PRIVATE_LINK_REASONS.manualApproval,
  PRIVATE_LINK_REASONS.refused,
  PRIVATE_LINK_REASONS.approvalFailed,
  PRIVATE_LINK_REASONS.possibleImpersonation,
];

function gatewayState(frontDoor: readonly ConnectionView[], message: string): GatewayState {
  const carrying = frontDoor.filter((c) => c.description === message);
  const approved = carrying.find((c) => c.status === 'Approved');
  if (approved) return { kind: 'approved', connection: approved };
  const pending = carrying.find((c) => c.status === 'Pending');
  if (pending) return { kind: 'pending', connection: pending };
  const [other] = carrying;
  return other ? { kind: 'rejected', connection: other } : { kind: 'awaiting' };
}

/**
 * A refused write to a service in the node resource group is most likely node resource group lockdown (AKS Automatic,
 * or --nrg-lockdown-restriction-level ReadOnly): its deny assignment blocks every identity but AKS's own.
 */
function lockdownHint(failure: ArmFailure, privateLinkServiceId: string, nodeResourceGroup: string): string {
  const group = resourceGroupOf(privateLinkServiceId) ?? '';
  if (failure.status !== 403 || group.toLowerCase() !== nodeResourceGroup.toLowerCase()) return '';
  return `; the service is in the node resource group ${group}, whose lockdown denies writes: set service.beta.kubernetes.io/azure-pls-resource-group to a resource group of yours where this agent may approve connections`;
}

function hasOrigin(fields: OriginFields): boolean {
  return ORIGIN_FIELD_KEYS.some((key) => key !== 'azureDataStale' && fields[key] !== undefined);
}
