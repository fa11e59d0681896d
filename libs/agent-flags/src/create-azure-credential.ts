import { ManagedIdentityCredential, WorkloadIdentityCredential, type TokenCredential } from '@azure/identity';
import type { AzureCredentialChoice } from './azure-credential.js';

/**
 * The one @azure/identity credential of the operator's choice, with every setting passed explicitly (never a chain
 * such as DefaultAzureCredential, which would try the environment, the Azure CLI and the node's identity in turn).
 * Construction does no I/O; the first token request does. ManagedIdentityCredential finds its endpoint as the
 * platform sets it: IDENTITY_ENDPOINT and IDENTITY_HEADER (App Service's protocol, which the local emulator serves),
 * else the node's IMDS; readAzureCredential has refused the environment that would turn it into a token exchange.
 */
export function createAzureCredential(choice: AzureCredentialChoice): TokenCredential {
  if (choice.kind === 'workload-identity') {
    return new WorkloadIdentityCredential({ clientId: choice.clientId, tenantId: choice.tenantId, tokenFilePath: choice.tokenFile });
  }
  return choice.clientId === undefined ? new ManagedIdentityCredential() : new ManagedIdentityCredential({ clientId: choice.clientId });
}
