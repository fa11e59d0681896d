import { readFile } from 'node:fs/promises';
import { DefaultAzureCredential } from '@azure/identity';
import { ArmRateLimiter, armBucketsShare, classifyArmError, describeFailure } from '@fleet-gateway/arm-runtime';
import { createFrontDoorClients, hubIdentityOf, observeFrontDoor, type FrontDoorPlan, type FrontDoorScope } from '@fleet-gateway/azure-frontdoor';
import type { GatewayIdentity } from '@fleet-gateway/model';
import { compareWithAzure, type AzureView } from './afd-resources.js';
import { UsageError } from './cli-args.js';

/** Where the hub's AFD profiles are, as the hub's own flags say (the chart's azure.subscriptionId, afd.resourceGroup, hubName). */
export interface AzureConnection {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly hubName: string;
  /** A sovereign cloud's ARM endpoint, or the local emulator's (default: Azure public cloud). */
  readonly armEndpoint?: string;
  /** PEM CA certificates trusted for ARM instead of the system's (the emulator's CA). */
  readonly armCaFile?: string;
}

export interface AzureReader {
  /** The hub identity the plans are made with, so that the plan's ownership tags are those the hub wrote. */
  readonly hubIdentity: string;
  /** The Gateway's AFD graph read from ARM and compared with the plan, or why it could not be. Never writes. */
  compare(plan: FrontDoorPlan, gateway: GatewayIdentity): Promise<AzureView>;
}

// A tool answers within a minute or says why: each attempt is cut at 20 s and retried at most twice, a Retry-After
// longer than 10 s is cut to it, and the whole read of one profile is abandoned after 60 s.
const RETRY = { maxRetries: 2, requestTimeoutMs: 20_000, maxRetryAfterMs: 10_000 };
const READ_DEADLINE_MS = 60_000;
// An operator's look leaves most of the subscription's ARM read budget to the hub and the other clients.
const ARM_SHARE = 0.1;

/**
 * ARM read access for the plugin: the credential DefaultAzureCredential finds (environment, workload identity, managed
 * identity, the Azure CLI's login…), the hub's Front Door clients and its observe, which reads with lists, the fewest
 * reads ARM allows. The plugin calls observe only: no write is ever sent.
 */
export async function azureReader(connection: AzureConnection): Promise<AzureReader> {
  const ca = connection.armCaFile
    ? await readFile(connection.armCaFile, 'utf8').catch((error: Error) => {
        throw new UsageError(`--arm-ca-file is "${connection.armCaFile}", which cannot be read (${error.message}); expected a PEM file of CA certificates`);
      })
    : undefined;
  const clients = createFrontDoorClients({
    credential: new DefaultAzureCredential(),
    subscriptionId: connection.subscriptionId,
    ...(connection.armEndpoint ? { endpoint: connection.armEndpoint } : {}),
    ...(ca ? { tlsOptions: { ca } } : {}),
    rateLimiter: new ArmRateLimiter(armBucketsShare(ARM_SHARE)),
    retry: RETRY,
    userAgentPrefix: 'kubectl-afd',
  });
  const scope: FrontDoorScope = { subscriptionId: connection.subscriptionId, resourceGroup: connection.resourceGroup };
  const hubIdentity = hubIdentityOf({ subscriptionId: connection.subscriptionId, hubName: connection.hubName });
  return {
    hubIdentity,
    async compare(plan, gateway) {
      const profile = plan.graph.profile.ref.profile;
      const owner = { hubIdentity, gateway };
      try {
        const observed = await observeFrontDoor(clients.cdn, scope, profile, owner, { abortSignal: AbortSignal.timeout(READ_DEADLINE_MS) });
        return compareWithAzure(plan, observed, scope, owner);
      } catch (error) {
        return {
          read: false,
          reason: `reading profile ${profile} in resource group ${scope.resourceGroup} failed: ${describeFailure(classifyArmError(error))}`,
        };
      }
    },
  };
}
