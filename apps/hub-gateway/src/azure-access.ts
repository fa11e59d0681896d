import { createAzureCredential, describeAzureCredential } from '@fleet-gateway/agent-flags';
import { ArmRateLimiter, armBucketsShare, warnRetryAfterCapped } from '@fleet-gateway/arm-runtime';
import { createFrontDoorClients, hubIdentityOf } from '@fleet-gateway/azure-frontdoor';
import type { Logger } from '@fleet-gateway/controller';
import type { AzureFrontDoorAccess } from '@fleet-gateway/gateway-controllers';
import type { Registry } from 'prom-client';
import type { HubFlags } from './flags.js';

/**
 * The hub's only way into Azure, built when --enable-afd is on: the one credential --azure-credential chose (workload
 * identity or managed identity in AKS; the emulator's managed-identity endpoint locally), one rate limiter for the
 * process sized to the flag's share of ARM's buckets, and the Front Door clients reporting their ARM metrics on the
 * agent's registry.
 */
export interface AzureAccessWiring {
  readonly registry: Registry;
  readonly logger: Logger;
  /** The leader Lease's fence (Manager.leaseFence); absent without leader election. */
  readonly writeFence?: () => string | undefined;
}

export function createAzureAccess(flags: HubFlags, wiring: AzureAccessWiring): AzureFrontDoorAccess {
  const { registry, logger } = wiring;
  // parseHubFlags refuses --enable-afd without these; the check keeps the types honest.
  const { azureSubscriptionId: subscriptionId, afdResourceGroup: resourceGroup, hubName, azureCredential } = flags;
  if (!subscriptionId || !resourceGroup || !hubName || !azureCredential)
    throw new Error('--enable-afd needs --azure-subscription-id, --afd-resource-group, --hub-name and --azure-credential');
  const limiterBuckets = armBucketsShare(flags.armRateLimitShare);
  const clients = createFrontDoorClients({
    credential: createAzureCredential(azureCredential),
    subscriptionId,
    ...(flags.armEndpoint ? { endpoint: flags.armEndpoint } : {}),
    rateLimiter: new ArmRateLimiter(limiterBuckets),
    retry: { onRetryAfterCapped: warnRetryAfterCapped(logger) },
    metricsRegistry: registry,
    ...(wiring.writeFence ? { writeFence: wiring.writeFence } : {}),
  });
  return {
    clients,
    scope: { subscriptionId, resourceGroup },
    hubIdentity: hubIdentityOf({ subscriptionId, hubName }),
    identity: { identity: describeAzureCredential(azureCredential) },
    profileQuota: flags.afdProfileQuota,
    driftCheck: flags.driftCheckPeriodMs !== undefined ? { periodMs: flags.driftCheckPeriodMs } : { readRefillPerSecond: limiterBuckets.reads.refillPerSecond },
    ...(wiring.writeFence ? { writeFence: wiring.writeFence } : {}),
  };
}
