import { DefaultAzureCredential } from '@azure/identity';
import { createFrontDoorClients, hubIdentityOf } from '@fleet-gateway/azure-frontdoor';
import { ArmRateLimiter, armBucketsShare, warnRetryAfterCapped } from '@fleet-gateway/arm-runtime';
import type { Logger } from '@fleet-gateway/controller';
import type { AzureFrontDoorAccess } from '@fleet-gateway/gateway-controllers';
import type { Registry } from 'prom-client';
import type { HubFlags } from './flags.js';

/**
 * The hub's only way into Azure, built when --enable-afd is on: DefaultAzureCredential (workload identity in AKS;
 * the emulator's managed-identity endpoint locally), one rate limiter for the process sized to the flag's share of
 * ARM's buckets, and the Front Door clients reporting their ARM metrics on the agent's registry.
 */
export interface AzureAccessWiring {
  readonly registry: Registry;
  readonly environment: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** The leader Lease's fence (Manager.leaseFence); absent without leader election. */
  readonly writeFence?: () => string | undefined;
}

export function createAzureAccess(flags: HubFlags, wiring: AzureAccessWiring): AzureFrontDoorAccess {
  const { registry, environment, logger } = wiring;
  // parseHubFlags refuses --enable-afd without these; the check keeps the types honest.
  const { azureSubscriptionId: subscriptionId, afdResourceGroup: resourceGroup, hubName } = flags;
  if (!subscriptionId || !resourceGroup || !hubName) throw new Error('--enable-afd needs --azure-subscription-id, --afd-resource-group and --hub-name');
  const credential = new DefaultAzureCredential(flags.azureTenantId ? { tenantId: flags.azureTenantId } : {});
  const clients = createFrontDoorClients({
    credential,
    subscriptionId,
    ...(flags.armEndpoint ? { endpoint: flags.armEndpoint } : {}),
    rateLimiter: new ArmRateLimiter(armBucketsShare(flags.armRateLimitShare)),
    retry: { onRetryAfterCapped: warnRetryAfterCapped(logger) },
    metricsRegistry: registry,
    ...(wiring.writeFence ? { writeFence: wiring.writeFence } : {}),
  });
  return {
    clients,
    scope: { subscriptionId, resourceGroup },
    hubIdentity: hubIdentityOf({ subscriptionId, hubName }),
    identity: { identity: describeIdentity(environment) },
    profileQuota: flags.afdProfileQuota,
    ...(wiring.writeFence ? { writeFence: wiring.writeFence } : {}),
  };
}

/** Which identity DefaultAzureCredential will use, as far as the environment tells, for messages about roles. */
function describeIdentity(environment: NodeJS.ProcessEnv): string {
  const clientId = environment.AZURE_CLIENT_ID;
  if (clientId && environment.AZURE_FEDERATED_TOKEN_FILE) return `the workload identity with client id ${clientId}`;
  if (clientId) return `the identity with client id ${clientId}`;
  return "the hub's managed identity (DefaultAzureCredential)";
}
