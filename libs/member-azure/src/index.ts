// Pure: the Service's facts, discovery over listed resources, the re-read policy, approval plans and the manual command.
export * from './service-facts.js';
export * from './azure-views.js';
export * from './discover-private-link.js';
export * from './connection-watch.js';
export * from './front-door-endpoint.js';
export * from './plan-approvals.js';

// I/O at the edges: the Microsoft.Network client, the per-resource-group inventory, discovery and approval.
export { createMemberNetworkClient } from './network-client.js';
export { CachedRead, type Snapshot, type Staleness } from './cached-read.js';
export { NetworkInventory, DEFAULT_INVENTORY_TTL_MS, type InventoryOptions } from './network-inventory.js';
export {
  PrivateLinkDiscovery,
  type ApprovalResult,
  type DiscoverRequest,
  type DiscoveryResult,
  type NotPublished,
  type PublishedPrivateLink,
} from './private-link-discovery.js';

// The member-export seam: an internal load balancer Service's origin, and what its ServiceExport says of it.
export * from './private-link-observation.js';
export { PrivateLinkOriginDiscovery, type PrivateLinkOriginDiscoveryOptions } from './private-link-origin-discovery.js';
export { PrivateLinkApprovalMetrics } from './approval-metrics.js';
