import type { NetworkManagementClient } from '@azure/arm-network';
import { classifyArmError, type ArmFailure } from '@fleet-gateway/arm-runtime';
import { connectionView, resourceGroupOf, type ConnectionView } from './azure-views.js';
import type { Snapshot, Staleness } from './cached-read.js';
import { awaitedMessages, connectionReadDue, nextConnectionWatch, type ConnectionWatch } from './connection-watch.js';
import { discoverPrivateLink, type DiscoveredPrivateLinkService } from './discover-private-link.js';
import { frontDoorConnections } from './front-door-endpoint.js';
import { NetworkInventory, type InventoryOptions } from './network-inventory.js';
import { planApprovals, type ApprovalPolicy, type HubRequest, type RefusedApproval } from './plan-approvals.js';
import { isUnknown, privateLinkTargetOf, unknown, type ServiceFacts, type Unknown } from './service-facts.js';

/** What is missing from lists read before the cloud provider finished: a fresher list can find it. */
const BEHIND: ReadonlySet<string> = new Set(['LoadBalancerNotFound', 'FrontendNotFound', 'PrivateLinkServiceNotFound']);

export interface DiscoverRequest {
  readonly service: ServiceFacts;
  /** The requests the hub issued for this export (InternalServiceExport status); none before the hub asks. */
  readonly requests?: readonly HubRequest[];
}

/** What to publish for a Private Link Service-backed Service. */
export interface PublishedPrivateLink {
  readonly state: 'found';
  readonly privateLinkService: DiscoveredPrivateLinkService;
  readonly connections: readonly ConnectionView[];
  /** When the connections above were read. */
  readonly connectionsReadAt: Date;
  /** Set when the last read failed: the values are the last ones read, to be treated as missing information. */
  readonly stale?: Staleness;
  /** Hub-issued messages whose Front Door connection has not appeared or is still Pending. */
  readonly awaitedMessages: readonly string[];
  /** When to reconcile again: to see what is awaited (connections re-read with backoff), or to retry a failed read; undefined: nothing to wait for. */
  readonly requeueAfterMs?: number;
}

export type NotPublished = Unknown & {
  readonly stale?: Staleness;
  /** When the lists that could change this answer are read next; undefined when only the Service can change it. */
  readonly requeueAfterMs?: number;
};

export type DiscoveryResult = PublishedPrivateLink | NotPublished;

export interface ApprovalResult {
  /** Names of the connections approved now. */
  readonly approved: readonly string[];
  /** Connections carrying a hub message that were left Pending, and why. */
  readonly refused: readonly RefusedApproval[];
  readonly failures: ReadonlyArray<{ readonly name: string; readonly failure: ArmFailure }>;
}

/**
 * The member's Azure side for exported Services: discovery of the internal load balancer frontend and Private Link
 * Service behind a Service (from per-resource-group lists kept for a TTL), its connections (re-read when the hub
 * issues a message and, with backoff, while one is awaited), and approval of exactly the hub's Front Door
 * connections. No Kubernetes here: the ServiceExport controller passes the Service's facts and the hub's messages.
 */
export class PrivateLinkDiscovery {
  readonly inventory: NetworkInventory;
  private readonly watches = new Map<string, ConnectionWatch>();
  /** Per Service: its lists' early re-reads because they lacked what its address proves exists, and when the next is due. */
  private readonly behind = new Map<string, { readonly attempts: number; readonly nextAt: number }>();
  private readonly now: () => number;

  constructor(
    private readonly client: NetworkManagementClient,
    options: InventoryOptions = {},
  ) {
    this.inventory = new NetworkInventory(client, options);
    this.now = options.now ?? Date.now;
  }

  async discover(request: DiscoverRequest): Promise<DiscoveryResult> {
    const target = privateLinkTargetOf(request.service);
    if (isUnknown(target)) return target;
    const groups = [target.loadBalancerResourceGroup, target.privateLinkServiceResourceGroup];
    const read = (maxAgeMs?: number) =>
      Promise.all([
        this.inventory.loadBalancers(target.loadBalancerResourceGroup, maxAgeMs),
        this.inventory.privateLinkServices(target.privateLinkServiceResourceGroup, maxAgeMs),
      ]);
    let [loadBalancers, services] = await read();
    let outcome = loadBalancers.value && services.value ? discoverPrivateLink(target, loadBalancers.value, services.value) : undefined;
    // The Service has its address, so the cloud provider has made its frontend (and, first, its Private Link Service):
    // lists that lack them are behind. They are read again sooner than the TTL, at a doubling interval per Service;
    // Services of one resource group share each early read (a list younger than the first interval is reused).
    let behindMs: number | undefined;
    if (outcome?.state === 'unknown' && BEHIND.has(outcome.reason)) {
      const early = this.behind.get(target.serviceKey) ?? { attempts: 0, nextAt: 0 };
      const now = this.now();
      if (now >= early.nextAt) {
        [loadBalancers, services] = await read(this.inventory.backoff.initialMs);
        outcome = loadBalancers.value && services.value ? discoverPrivateLink(target, loadBalancers.value, services.value) : outcome;
        const attempts = early.attempts + 1;
        this.behind.set(target.serviceKey, {
          attempts,
          nextAt: now + Math.min(this.inventory.ttlMs, this.inventory.backoff.maxMs, this.inventory.backoff.initialMs * 2 ** (attempts - 1)),
        });
      }
      behindMs = Math.max(0, (this.behind.get(target.serviceKey)?.nextAt ?? now) - now);
    }
    if (outcome?.state !== 'unknown') this.behind.delete(target.serviceKey);
    const stale = loadBalancers.stale ?? services.stale;
    const listedAgain = this.inventory.nextListAt(groups) - this.now();
    const requeueAfterMs = behindMs === undefined || outcome?.state !== 'unknown' ? listedAgain : Math.min(listedAgain, behindMs);
    if (outcome === undefined) {
      const failure = stale?.failure;
      const failed = unknown(
        'AzureReadFailed',
        `could not read Microsoft.Network in ${groups.join(', ')}: ${failure ? `${failure.code}: ${failure.cause}` : 'no answer'}`,
      );
      return { ...failed, ...(stale ? { stale } : {}), requeueAfterMs };
    }
    if (outcome.state === 'unknown') return { ...outcome, ...(stale ? { stale } : {}), requeueAfterMs };
    const requestMessages = (request.requests ?? []).map((r) => r.message);
    const asked = (request.requests ?? []).flatMap((r) => (r.askedTime ? [r.askedTime] : []));
    const listed = { value: [...outcome.connections], ...(services.readAt ? { readAt: services.readAt } : {}) };
    const result = await this.withConnections(target.serviceKey, outcome.privateLinkService, listed, requestMessages, asked, stale);
    // Stale values are missing information: look again when the failed list is retried. So is a published connection
    // the hub relies on: it can vanish (its origin deleted, its Gateway gone, an operator's delete) with nothing in
    // Kubernetes changing, so an export with hub requests or Front Door connections is looked at again with its lists.
    const tracked = requestMessages.length > 0 || frontDoorConnections(outcome.privateLinkService.id, result.connections).length > 0;
    if (stale === undefined && !tracked) return result;
    return { ...result, requeueAfterMs: Math.max(0, Math.min(result.requeueAfterMs ?? requeueAfterMs, requeueAfterMs)) };
  }

  /**
   * Approves the Pending connections of a discovered service that `planApprovals` binds to exactly one of the hub's
   * requests, keeping the message as the approval's description. Touches nothing else. The fence (the agent's leader
   * Lease) is asked before each approval: with a reason, the rest stay Pending with it.
   */
  async approve(
    published: PublishedPrivateLink,
    requests: readonly HubRequest[],
    policy: ApprovalPolicy = {},
    fence?: () => string | undefined,
  ): Promise<ApprovalResult> {
    const service = published.privateLinkService;
    const plan = planApprovals(service.id, published.connections, requests, policy);
    if (service.ownership === 'unmanaged') {
      const why = `Private Link Service ${service.name} carries no cloud-provider-azure tags, so this agent cannot prove it is the cluster's; approve by hand`;
      return {
        approved: [],
        refused: [...plan.refused, ...plan.approve.map(({ connection }) => ({ connection, kind: 'not-honoured' as const, why }))],
        failures: [],
      };
    }
    const approved: string[] = [];
    const failures: Array<{ name: string; failure: ArmFailure }> = [];
    const fenced: RefusedApproval[] = [];
    let current = published.connections;
    for (const { connection, message } of plan.approve) {
      const why = fence?.();
      if (why) {
        fenced.push({ connection, kind: 'fenced', why });
        continue;
      }
      try {
        const answer = await this.client.privateLinkServices.updatePrivateEndpointConnection(resourceGroupOf(service.id) ?? '', service.name, connection.name, {
          name: connection.name,
          privateLinkServiceConnectionState: { status: 'Approved', description: message, actionsRequired: 'None' },
        });
        this.inventory.recordConnection(service.id, connectionView(answer), current);
        current = this.inventory.connectionSnapshot(service.id).value ?? current;
        approved.push(connection.name);
      } catch (error) {
        failures.push({ name: connection.name, failure: classifyArmError(error) });
      }
    }
    return { approved, refused: [...plan.refused, ...fenced], failures };
  }

  /** Forgets an export's watch (the Service was unexported or deleted). */
  forget(namespace: string, name: string): void {
    this.watches.delete(`${namespace}/${name}`);
    this.behind.delete(`${namespace}/${name}`);
  }

  private async withConnections(
    exportKey: string,
    service: DiscoveredPrivateLinkService,
    listed: Snapshot<ConnectionView[]>,
    requestMessages: readonly string[],
    asked: readonly string[],
    listStale: Staleness | undefined,
  ): Promise<PublishedPrivateLink> {
    const watch = this.watches.get(exportKey);
    let connections = newest(listed, this.inventory.connectionSnapshot(service.id));
    const now = this.now();
    // Only Front Door's connections can be the hub's: a copied message on another endpoint is never waited for.
    const reread = connectionReadDue(watch, requestMessages, frontDoorConnections(service.id, connections.value ?? []), now, asked);
    if (reread) connections = newest(connections, await this.inventory.rereadConnections(service.id));
    const values = connections.value ?? [];
    const frontDoor = frontDoorConnections(service.id, values);
    const next = nextConnectionWatch(watch, requestMessages, frontDoor, reread, this.now(), this.inventory.backoff, asked);
    this.watches.set(exportKey, next);
    const stale = listStale ?? connections.stale;
    return {
      state: 'found',
      privateLinkService: service,
      connections: values,
      connectionsReadAt: connections.readAt ?? new Date(now),
      ...(stale ? { stale } : {}),
      awaitedMessages: awaitedMessages(requestMessages, frontDoor),
      ...(next.nextReadAt === undefined ? {} : { requeueAfterMs: Math.max(0, next.nextReadAt - this.now()) }),
    };
  }
}

/**
 * The more recently read of two snapshots of the same connections. A failure of the other one counts only if it began
 * at or after the newer read (otherwise that read is fresher than the failure).
 */
function newest(a: Snapshot<ConnectionView[]>, b: Snapshot<ConnectionView[]>): Snapshot<ConnectionView[]> {
  const bNewer = b.value !== undefined && (a.readAt === undefined || (b.readAt !== undefined && b.readAt >= a.readAt));
  const [newer, older] = bNewer ? [b, a] : [a, b];
  const olderFailedSince = older.stale !== undefined && (newer.readAt === undefined || older.stale.since >= newer.readAt);
  const stale = newer.stale ?? (olderFailedSince ? older.stale : undefined);
  const { stale: _ignored, ...values } = newer;
  return { ...values, ...(stale ? { stale } : {}) };
}
