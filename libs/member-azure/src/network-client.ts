import { NetworkManagementClient } from '@azure/arm-network';
import { installPolicies, type ArmConnectionOptions } from '@fleet-gateway/arm-runtime';

/**
 * The member's Microsoft.Network client (`@azure/arm-network`, api-version 2026-01-01 fixed in its generated code),
 * with the same retry policy and shared rate limiter as the hub's clients. `subscriptionId` is the subscription of
 * the member's load balancers and Private Link Services. No ARM metrics yet: the hub's `ArmMetrics` labels only the
 * Front Door resource types, so the Microsoft.Network ones come with the member agent's wiring.
 */
export function createMemberNetworkClient(options: Omit<ArmConnectionOptions, 'metricsRegistry'>): NetworkManagementClient {
  const client = new NetworkManagementClient(options.credential, options.subscriptionId, {
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.tlsOptions ? { tlsOptions: { ...options.tlsOptions } } : {}),
    userAgentOptions: { userAgentPrefix: options.userAgentPrefix ?? 'fleet-member-discovery' },
  });
  installPolicies(client.pipeline, options.rateLimiter, options.retry);
  return client;
}
