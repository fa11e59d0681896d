import type { NetworkManagementClient } from '@azure/arm-network';
import { ArmRequestCount, parseArmId } from '@fleet-gateway/arm-runtime';
import {
  connectionView,
  loadBalancerView,
  privateLinkServiceView,
  type ConnectionView,
  type LoadBalancerView,
  type PrivateLinkServiceView,
} from './azure-views.js';
import { CachedRead, type Snapshot } from './cached-read.js';
import { DEFAULT_CONNECTION_BACKOFF, type BackoffSettings } from './connection-watch.js';

export interface InventoryOptions {
  /** How long a resource group's lists are used before they are read again (default 60 s). */
  readonly ttlMs?: number;
  /** Backoff of a failed read's retries (capped at the TTL), and of re-reads while a hub connection is awaited. */
  readonly backoff?: BackoffSettings;
  readonly now?: () => number;
}

export const DEFAULT_INVENTORY_TTL_MS = 60_000;

/**
 * The member's view of Microsoft.Network, per resource group: its load balancers and Private Link Services listed
 * at most once per TTL however many Services ask (never one list per Service: the upstream scale hazard), and a
 * service's connections re-read only when asked. Counts the ARM reads it made (`reads`).
 */
export class NetworkInventory {
  readonly ttlMs: number;
  readonly backoff: BackoffSettings;
  /** ARM requests this inventory issued and ARM answered (list pages included). */
  readonly requests = new ArmRequestCount();
  private readonly now: () => number;
  private readonly loadBalancerLists = new Map<string, CachedRead<LoadBalancerView[]>>();
  private readonly serviceLists = new Map<string, CachedRead<PrivateLinkServiceView[]>>();
  private readonly connectionLists = new Map<string, CachedRead<ConnectionView[]>>();

  constructor(
    private readonly client: NetworkManagementClient,
    options: InventoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_INVENTORY_TTL_MS;
    this.backoff = options.backoff ?? DEFAULT_CONNECTION_BACKOFF;
    this.now = options.now ?? Date.now;
  }

  /**
   * The resource group's load balancers, read at most once per TTL — or sooner when `maxAgeMs` is given and the list
   * is older (the caller has seen the cloud provider move on: a Service has an address the list does not hold).
   */
  loadBalancers(resourceGroup: string, maxAgeMs?: number): Promise<Snapshot<LoadBalancerView[]>> {
    const read = entry(this.loadBalancerLists, resourceGroup, this.now, () =>
      collect(this.client.loadBalancers.list(resourceGroup, this.counted()), loadBalancerView),
    );
    return maxAgeMs === undefined ? read.get(this.ttlMs, this.backoff) : read.getFresherThan(maxAgeMs, this.ttlMs, this.backoff);
  }

  /** The resource group's Private Link Services, as `loadBalancers`. */
  privateLinkServices(resourceGroup: string, maxAgeMs?: number): Promise<Snapshot<PrivateLinkServiceView[]>> {
    const read = entry(this.serviceLists, resourceGroup, this.now, () =>
      collect(this.client.privateLinkServices.list(resourceGroup, this.counted()), privateLinkServiceView),
    );
    return maxAgeMs === undefined ? read.get(this.ttlMs, this.backoff) : read.getFresherThan(maxAgeMs, this.ttlMs, this.backoff);
  }

  /** A service's connections read now (the caller decides when: `connectionReadDue`), unless a failed read backs off. */
  rereadConnections(privateLinkServiceId: string): Promise<Snapshot<ConnectionView[]>> {
    return this.connectionRead(privateLinkServiceId).get(this.ttlMs, this.backoff, true);
  }

  /** The last separately read connections of a service (none before the first re-read). */
  connectionSnapshot(privateLinkServiceId: string): Snapshot<ConnectionView[]> {
    return this.connectionLists.get(privateLinkServiceId.toLowerCase())?.snapshot() ?? {};
  }

  /** Records a connection as a write returned it, so the next reconcile sees it without a read. */
  recordConnection(privateLinkServiceId: string, updated: ConnectionView, current: readonly ConnectionView[]): void {
    this.connectionRead(privateLinkServiceId).set(current.map((connection) => (connection.name === updated.name ? updated : connection)));
  }

  /** When one of the resource groups' lists is read next (the earliest moment a "not yet" or a stale value can change). */
  nextListAt(resourceGroups: readonly string[]): number {
    const reads = resourceGroups.flatMap((group) => [this.loadBalancerLists.get(group.toLowerCase()), this.serviceLists.get(group.toLowerCase())]);
    const next = reads.flatMap((read) => (read === undefined ? [] : [read.nextReadAt(this.ttlMs)]));
    return next.length === 0 ? this.now() : Math.max(this.now(), Math.min(...next));
  }

  private connectionRead(privateLinkServiceId: string): CachedRead<ConnectionView[]> {
    return entry(this.connectionLists, privateLinkServiceId, this.now, () => {
      const { resourceGroup = '', name = '' } = parseArmId(privateLinkServiceId);
      return collect(this.client.privateLinkServices.listPrivateEndpointConnections(resourceGroup, name, this.counted()), connectionView);
    });
  }

  private counted() {
    return { onResponse: this.requests.onResponse };
  }
}

function entry<T>(map: Map<string, CachedRead<T>>, key: string, now: () => number, read: () => Promise<T>): CachedRead<T> {
  const lower = key.toLowerCase();
  let cached = map.get(lower);
  if (cached === undefined) {
    cached = new CachedRead(read, now);
    map.set(lower, cached);
  }
  return cached;
}

async function collect<S, T>(pages: AsyncIterable<S>, view: (item: S) => T): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) items.push(view(item));
  return items;
}
