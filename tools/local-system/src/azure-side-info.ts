/** What the local system's Azure side serves, as written to <dir>/azure.json. */
export interface AzureSideInfo {
  pid: number;
  armEndpoint: string;
  caCertificatePath: string;
  edgeUrl: string;
  adminUrl: string;
  /** The Azure side's own endpoint for the `backend` command (src/backend-server.ts). */
  backendsUrl: string;
  /**
   * The emulator's managed-identity endpoint (App Service protocol): run an agent with IDENTITY_ENDPOINT and
   * IDENTITY_HEADER set to these and its ManagedIdentityCredential (--azure-credential=managed-identity) takes its
   * tokens from the emulator.
   */
  identityEndpoint: string;
  identityHeader: string;
  subscriptionId: string;
  /** The resource group the hub agent's AFD profiles go in (`--afd-resource-group`); created with the Azure side. */
  afdResourceGroup: string;
  members: string[];
}

/** The emulator accepts any subscription; the local system uses this one throughout. */
export const LOCAL_SUBSCRIPTION_ID = '00000000-0000-0000-0000-00000000f1ee';

export const LOCAL_AFD_RESOURCE_GROUP = 'rg-fleet-afd';

/** AKS puts a cluster's load balancers and Private Link Services in its node resource group. */
export const memberResourceGroup = (member: string): string => `mc-${member}`;
