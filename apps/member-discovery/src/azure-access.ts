import { createAzureCredential } from '@fleet-gateway/agent-flags';
import { ArmRateLimiter, armBucketsShare, warnRetryAfterCapped } from '@fleet-gateway/arm-runtime';
import type { Logger } from '@fleet-gateway/controller';
import { createMemberNetworkClient, PrivateLinkApprovalMetrics, PrivateLinkDiscovery, PrivateLinkOriginDiscovery } from '@fleet-gateway/member-azure';
import type { OriginDiscovery } from '@fleet-gateway/member-export';
import type { Registry } from 'prom-client';
import type { MemberFlags } from './flags.js';

/**
 * The member's only way into Azure, built when --enable-private-link-origin-discovery is on: the one credential
 * --azure-credential chose (workload identity or managed identity in AKS; the emulator's managed-identity endpoint
 * locally), one rate limiter for the process
 * sized to the flag's share of ARM's buckets, the Microsoft.Network client, and the Private Link origin discovery of
 * the node resource group's load balancers and Private Link Services.
 */
export function createPrivateLinkOriginDiscovery(
  flags: MemberFlags,
  logger: Logger,
  registry: Registry,
  writeFence?: () => string | undefined,
): OriginDiscovery {
  // parseMemberFlags refuses discovery without these; the check keeps the types honest.
  const { azureSubscriptionId: subscriptionId, nodeResourceGroup, azureCredential } = flags;
  if (!subscriptionId || !nodeResourceGroup || !azureCredential)
    throw new Error('--enable-private-link-origin-discovery needs --azure-subscription-id, --node-resource-group and --azure-credential');
  const client = createMemberNetworkClient({
    credential: createAzureCredential(azureCredential),
    subscriptionId,
    ...(flags.armEndpoint ? { endpoint: flags.armEndpoint } : {}),
    rateLimiter: new ArmRateLimiter(armBucketsShare(flags.armRateLimitShare)),
    retry: { onRetryAfterCapped: warnRetryAfterCapped(logger) },
  });
  return new PrivateLinkOriginDiscovery({
    discovery: new PrivateLinkDiscovery(client),
    nodeResourceGroup,
    approveConnections: flags.approvePrivateLinkConnections,
    ...(flags.privateLinkApprovalHubs ? { approvalHubs: flags.privateLinkApprovalHubs } : {}),
    metrics: new PrivateLinkApprovalMetrics(registry),
    ...(writeFence ? { writeFence } : {}),
    logger,
  });
}
