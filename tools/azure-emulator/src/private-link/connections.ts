import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { ArmError, badRequest } from '../arm/errors.js';
import { resourceKey } from '../arm/resource-id.js';
import { provisionedRecord, type ResourceRecord, type ResourceStore } from '../arm/store.js';
import { profileKeyOf } from '../cdn/afd-common.js';
import type { Limits } from '../limits.js';
import { NETWORK } from '../network/network-common.js';

/** The origin's `sharedPrivateLinkResource.status` (afdx.json SharedPrivateLinkResourceStatus). */
export type ConnectionStatus = 'Pending' | 'Approved' | 'Rejected' | 'Disconnected' | 'Timeout';

/** When AFD's side of Private Link acts (`EmulatorOptions.privateLink`). */
export interface PrivateLinkTiming {
  /** How long after the origin's write succeeded its connection appears on the Private Link Service. */
  connectionDelayMs: number;
  /** How long after approval the edge starts sending traffic through the connection (Azure documents minutes). */
  approvalPropagationMs: number;
  /** A connection still Pending this long shows `Timeout` on its origins; undefined: never. */
  pendingTimeoutMs?: number;
  /** Whether a Rejected connection may be approved again (undocumented, A26). */
  reapproveRejected: boolean;
}

interface SharedPrivateLinkResource {
  privateLink?: { id?: unknown };
  groupId?: unknown;
  privateLinkLocation?: unknown;
  requestMessage?: unknown;
}

/** A consumer's private endpoint outside AFD that asks for a connection (admin API `connectPrivateEndpoint`). */
export interface ConsumerEndpointSpec {
  privateLinkServiceId: string;
  /** `/subscriptions/{s}/resourceGroups/{g}/providers/Microsoft.Network/privateEndpoints/{name}`, not in AFD's subscription. */
  privateEndpointId: string;
  requestMessage?: string;
}

const CONSUMER_ENDPOINT_ID = /^\/subscriptions\/([^/]+)\/resourceGroups\/[^/]+\/providers\/Microsoft\.Network\/privateEndpoints\/[^/]+$/i;

interface SharedConnection {
  /** Absent while AFD is still creating the private endpoint (`connectionDelayMs`). */
  connectionKey?: string;
  /** The request message the connection was asked with. */
  requestMessage: string;
  origins: Set<string>;
  opening?: NodeJS.Timeout;
}

/**
 * AFD's managed private endpoints. An origin with `sharedPrivateLinkResource` makes AFD create a private endpoint
 * from an AFD-managed subscription; origins with the same (profile, Private Link resource, group id, location) share
 * it. Its connection shows up on the Private Link Service, Pending with the origin's request message as description
 * (auto-approved only if the service lists AFD's subscription); it goes away with the last origin using it.
 */
export class PrivateLinkConnections {
  private readonly shared = new Map<string, SharedConnection>();
  private readonly tupleOfOrigin = new Map<string, string>();

  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: ResourceStore,
    private readonly limits: Limits,
    private readonly afdSubscriptionId: string,
    readonly timing: PrivateLinkTiming,
    private readonly now: () => number,
  ) {}

  /** Refuses an origin whose Private Link settings AFD would reject. Changes nothing. */
  checkOrigin(originKey: string, profileKey: string, resource: unknown): void {
    const link = (resource ?? {}) as SharedPrivateLinkResource;
    const id = link.privateLink?.id;
    const service = typeof id === 'string' ? this.store.get(resourceKey(id)) : undefined;
    if (service?.kindKey !== NETWORK.privateLinkService) {
      throw badRequest(
        `'properties.sharedPrivateLinkResource.privateLink.id' must reference an existing private link service; got ${JSON.stringify(id ?? null)}.`,
      );
    }
    if (typeof link.privateLinkLocation !== 'string' || link.privateLinkLocation === '') {
      throw badRequest("'properties.sharedPrivateLinkResource.privateLinkLocation' is required for a Private Link origin.");
    }
    const tuple = tupleKey(profileKey, link);
    if (this.tupleOfOrigin.get(originKey) === tuple || this.liveConnection(tuple) !== undefined) return;
    const connections = this.store.ofKind(NETWORK.privateEndpointConnection, service.key).length;
    const max = this.limits.network.privateEndpointConnectionsPerPrivateLinkService;
    if (connections >= max) {
      throw badRequest(`Private link service '${service.name}' already has ${connections} private endpoint connections; the maximum is ${max}.`);
    }
  }

  /** The origin was provisioned: join (or open) the shared connection for its tuple. */
  attach(origin: ResourceRecord): void {
    const link = origin.body.properties.sharedPrivateLinkResource as SharedPrivateLinkResource | undefined;
    const tuple = link === undefined ? undefined : tupleKey(profileKeyOf(origin.path), link);
    const previous = this.tupleOfOrigin.get(origin.key);
    if (previous === tuple) {
      if (link !== undefined && tuple !== undefined) this.askAgain(tuple, link);
      return;
    }
    if (previous !== undefined) this.detach(origin.key);
    if (link === undefined || tuple === undefined) return;
    let entry = this.shared.get(tuple);
    if (entry === undefined) {
      entry = { origins: new Set(), requestMessage: requestMessageOf(link) };
      this.shared.set(tuple, entry);
      this.open(entry, link);
    }
    entry.origins.add(origin.key);
    this.tupleOfOrigin.set(origin.key, tuple);
  }

  /**
   * An origin's write changed its request message (A82): a connection that is Pending or Approved keeps the message it
   * was asked with; one that was Rejected or removed is replaced — AFD's private endpoint asks again, carrying the new
   * message, and the old connection leaves the Private Link Service.
   */
  private askAgain(tuple: string, link: SharedPrivateLinkResource): void {
    const entry = this.shared.get(tuple);
    const message = requestMessageOf(link);
    if (entry === undefined || entry.opening !== undefined || entry.requestMessage === message) return;
    const live = this.liveConnection(tuple);
    if (live !== undefined && (connectionStatusOf(live) === 'Pending' || connectionStatusOf(live) === 'Approved')) return;
    entry.requestMessage = message;
    if (entry.connectionKey !== undefined && this.store.remove(entry.connectionKey) !== undefined) this.store.changed();
    entry.connectionKey = undefined;
    this.open(entry, link);
  }

  private open(entry: SharedConnection, link: SharedPrivateLinkResource): void {
    const open = (): void => {
      entry.opening = undefined;
      entry.connectionKey = this.openConnection(link);
    };
    if (this.timing.connectionDelayMs <= 0) open();
    else entry.opening = this.later(this.timing.connectionDelayMs, open);
  }

  /** The origin is gone or no longer private: leave its shared connection, closing it if it was the last user. */
  detach(originKey: string): void {
    const tuple = this.tupleOfOrigin.get(originKey);
    if (tuple === undefined) return;
    this.tupleOfOrigin.delete(originKey);
    const entry = this.shared.get(tuple);
    if (entry === undefined) return;
    entry.origins.delete(originKey);
    if (entry.origins.size > 0) return;
    this.shared.delete(tuple);
    if (entry.opening !== undefined) this.cancel(entry.opening);
    if (entry.connectionKey !== undefined && this.store.remove(entry.connectionKey) !== undefined) this.store.changed();
  }

  /** What the origin's `sharedPrivateLinkResource.status` shows; undefined before the origin is provisioned. */
  statusOf(originKey: string): ConnectionStatus | undefined {
    const tuple = this.tupleOfOrigin.get(originKey);
    if (tuple === undefined) return undefined;
    if (this.shared.get(tuple)?.connectionKey === undefined) return 'Pending';
    const connection = this.liveConnection(tuple);
    if (connection === undefined) return 'Disconnected';
    const status = connectionStatusOf(connection);
    const timeout = this.timing.pendingTimeoutMs;
    if (status === 'Pending' && timeout !== undefined && this.now() - Number(connection.internal.openedAtMs) >= timeout) return 'Timeout';
    return status;
  }

  /** Whether the edge sends the origin traffic: its connection is Approved and the approval has propagated. */
  servesTraffic(originKey: string): boolean {
    const tuple = this.tupleOfOrigin.get(originKey);
    const connection = tuple === undefined ? undefined : this.liveConnection(tuple);
    if (connection === undefined || connectionStatusOf(connection) !== 'Approved') return false;
    const approvedAt = connection.internal.approvedAtMs;
    return typeof approvedAt === 'number' && this.now() - approvedAt >= this.timing.approvalPropagationMs;
  }

  /** A connection's state was written (approval or rejection): note when it became Approved, for propagation. */
  stateChanged(connection: ResourceRecord): void {
    if (connectionStatusOf(connection) !== 'Approved') {
      delete connection.internal.approvedAtMs;
      return;
    }
    if (typeof connection.internal.approvedAtMs === 'number') return;
    const approvedAt = this.now();
    connection.internal.approvedAtMs = approvedAt;
    // The edge re-reads what it serves on a change: tell it when the approval has propagated — by the emulator's
    // clock, which a timer can run ahead of by a millisecond (the edge would then still see it unpropagated, for good).
    const propagated = (): void => {
      const remaining = approvedAt + this.timing.approvalPropagationMs - this.now();
      if (remaining > 0) this.later(remaining, propagated);
      else this.store.changed();
    };
    this.later(this.timing.approvalPropagationMs, propagated);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(delayMs: number, action: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
    return timer;
  }

  private cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  /** Every shared connection and the origins using it (for the state dump). */
  describe(): Array<{ connectionId: string | undefined; origins: string[] }> {
    return [...this.shared.values()].map((entry) => ({
      connectionId: entry.connectionKey === undefined ? undefined : this.store.get(entry.connectionKey)?.id,
      origins: [...entry.origins],
    }));
  }

  private liveConnection(tuple: string): ResourceRecord | undefined {
    const key = this.shared.get(tuple)?.connectionKey;
    return key === undefined ? undefined : this.store.get(key);
  }

  private openConnection(link: SharedPrivateLinkResource): string | undefined {
    const service = this.store.get(resourceKey(String(link.privateLink?.id)));
    if (service === undefined) return undefined;
    const location = String(link.privateLinkLocation);
    const endpointName = `eafd-pe-${randomBytes(6).toString('hex')}`;
    return this.createConnection(service, {
      privateEndpointId: `/subscriptions/${this.afdSubscriptionId}/resourceGroups/eafd-Prod-${location}/providers/Microsoft.Network/privateEndpoints/${endpointName}`,
      location,
      requestMessage: requestMessageOf(link),
      autoApproved: this.autoApproves(service, this.afdSubscriptionId),
    });
  }

  /**
   * A private endpoint outside AFD (a consumer's, in its own subscription) requests a connection to a Private Link
   * Service, as `az network private-endpoint create --manual-request` does. Only AFD creates endpoints in AFD's managed
   * subscription, so such an id is refused; returns the connection's id.
   */
  connectConsumer(spec: ConsumerEndpointSpec): string {
    const service = this.store.get(resourceKey(spec.privateLinkServiceId));
    if (service?.kindKey !== NETWORK.privateLinkService) {
      throw new ArmError(404, 'ResourceNotFound', `Private link service '${spec.privateLinkServiceId}' was not found.`);
    }
    const endpoint = CONSUMER_ENDPOINT_ID.exec(spec.privateEndpointId);
    if (endpoint === null) {
      throw badRequest(
        `'privateEndpointId' must be /subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Network/privateEndpoints/{name}; got ${JSON.stringify(spec.privateEndpointId)}.`,
      );
    }
    const [, subscription = ''] = endpoint;
    if (subscription.toLowerCase() === this.afdSubscriptionId.toLowerCase()) {
      throw badRequest(
        `'privateEndpointId' is in Azure Front Door's managed subscription ${this.afdSubscriptionId}: only a Private Link origin makes such an endpoint.`,
      );
    }
    const connections = this.store.ofKind(NETWORK.privateEndpointConnection, service.key).length;
    const max = this.limits.network.privateEndpointConnectionsPerPrivateLinkService;
    if (connections >= max) {
      throw badRequest(`Private link service '${service.name}' already has ${connections} private endpoint connections; the maximum is ${max}.`);
    }
    const key = this.createConnection(service, {
      privateEndpointId: spec.privateEndpointId,
      location: String(service.body.location),
      requestMessage: spec.requestMessage ?? '',
      autoApproved: this.autoApproves(service, subscription),
    });
    return this.store.get(key)?.id ?? '';
  }

  private createConnection(
    service: ResourceRecord,
    endpoint: { privateEndpointId: string; location: string; requestMessage: string; autoApproved: boolean },
  ): string {
    const endpointName = endpoint.privateEndpointId.slice(endpoint.privateEndpointId.lastIndexOf('/') + 1);
    const name = `${endpointName}.${randomUUID()}`;
    const path = { ...service.path, types: [...service.path.types, 'privateEndpointConnections'], names: [...service.path.names, name] };
    const body = {
      properties: {
        privateLinkServiceConnectionState: {
          status: endpoint.autoApproved ? 'Approved' : 'Pending',
          description: endpoint.autoApproved ? 'Auto-Approved' : endpoint.requestMessage,
          actionsRequired: 'None',
        },
      },
    };
    const record = provisionedRecord(path, NETWORK.privateEndpointConnection, body, this.now(), {
      privateEndpointId: endpoint.privateEndpointId,
      linkIdentifier: String(randomInt(100_000_000, 999_999_999)),
      privateEndpointLocation: endpoint.location,
      openedAtMs: this.now(),
    });
    this.store.put(record);
    this.stateChanged(record);
    this.store.changed();
    return record.key;
  }

  /** Whether the service's visibility and auto-approval lists both take the consumer's subscription. */
  private autoApproves(service: ResourceRecord, consumerSubscriptionId: string): boolean {
    const properties = service.body.properties as { autoApproval?: { subscriptions?: string[] }; visibility?: { subscriptions?: string[] } };
    const consumer = consumerSubscriptionId.toLowerCase();
    const listed = (list: string[] | undefined): boolean => (list ?? []).some((s) => s.toLowerCase() === consumer);
    const visible = (properties.visibility?.subscriptions ?? []).includes('*') || listed(properties.visibility?.subscriptions);
    return visible && listed(properties.autoApproval?.subscriptions);
  }
}

export function connectionStatusOf(connection: ResourceRecord): ConnectionStatus {
  const state = connection.body.properties.privateLinkServiceConnectionState as { status?: ConnectionStatus } | undefined;
  return state?.status ?? 'Pending';
}

function requestMessageOf(link: SharedPrivateLinkResource): string {
  return typeof link.requestMessage === 'string' ? link.requestMessage : '';
}

function tupleKey(profileKey: string, link: SharedPrivateLinkResource): string {
  return [
    profileKey,
    resourceKey(String(link.privateLink?.id)),
    String(link.groupId ?? '').toLowerCase(),
    String(link.privateLinkLocation ?? '').toLowerCase(),
  ].join('|');
}
