import { checkSubscriptionId } from './checks.js';

export const AZURE_CREDENTIAL_KINDS = ['workload-identity', 'managed-identity'] as const;
export type AzureCredentialKind = (typeof AZURE_CREDENTIAL_KINDS)[number];

/**
 * The one Azure credential an agent uses, as the operator chose it with `--azure-credential`: nothing else of the
 * node (another environment credential, the Azure CLI, the node's identity) is ever tried in its place.
 */
export type AzureCredentialChoice =
  | {
      readonly kind: 'workload-identity';
      readonly clientId: string;
      readonly tenantId: string;
      /** The projected service account token the workload identity webhook mounts (AZURE_FEDERATED_TOKEN_FILE). */
      readonly tokenFile: string;
    }
  | {
      readonly kind: 'managed-identity';
      /** A user-assigned identity's client id; absent, the endpoint's identity without a client id. */
      readonly clientId?: string;
      /** The token endpoint the platform names (IDENTITY_ENDPOINT, e.g. the local emulator's, or MSI_ENDPOINT); absent, IMDS. */
      readonly tokenEndpoint?: string;
    };

/** Where the parsed values come from: the flags, the tenant in effect (flag or cloud config) and the environment. */
export interface AzureCredentialInputs {
  readonly kind: string;
  readonly clientId: string | undefined;
  readonly tenantId: string | undefined;
  readonly environment: NodeJS.ProcessEnv;
  /** What turns Azure access on (e.g. `--enable-afd`): the kind's prerequisites are checked only then. */
  readonly inUse: boolean;
}

const KINDS = AZURE_CREDENTIAL_KINDS.join(', ');

/**
 * `--azure-credential` and what its kind needs. Workload identity needs a client id (`--azure-client-id`, else
 * AZURE_CLIENT_ID), a tenant (`--azure-tenant-id` or the cloud config, else AZURE_TENANT_ID) and
 * AZURE_FEDERATED_TOKEN_FILE. Managed identity takes `--azure-client-id`, else AZURE_CLIENT_ID, for a user-assigned
 * identity, and refuses AZURE_FEDERATED_TOKEN_FILE: with it @azure/identity's ManagedIdentityCredential would
 * exchange the workload identity's token instead (its "token exchange" source), another identity than the one chosen.
 * Every missing piece is an error naming the flag, the value and what is missing.
 */
export function readAzureCredential(inputs: AzureCredentialInputs, errors: string[]): AzureCredentialChoice | undefined {
  const { environment } = inputs;
  const flagError = checkSubscriptionId('azure-client-id', inputs.clientId);
  if (flagError) errors.push(flagError);
  if (!(AZURE_CREDENTIAL_KINDS as readonly string[]).includes(inputs.kind)) {
    errors.push(`--azure-credential has invalid value "${inputs.kind}"; expected one of ${KINDS}`);
    return undefined;
  }
  const kind = inputs.kind as AzureCredentialKind;
  // The environment matters only to a credential that is built.
  if (!inputs.inUse) return undefined;
  const clientId = inputs.clientId ?? nonEmpty(environment.AZURE_CLIENT_ID);
  if (inputs.clientId === undefined && checkSubscriptionId('azure-client-id', clientId)) {
    errors.push(`AZURE_CLIENT_ID has invalid value "${clientId}"; expected a GUID (the client id of the identity --azure-credential=${kind} uses)`);
  }
  const chosen = `--azure-credential=${kind}`;
  const tokenFile = nonEmpty(environment.AZURE_FEDERATED_TOKEN_FILE);
  if (kind === 'managed-identity') {
    if (tokenFile !== undefined) {
      errors.push(
        `${chosen} cannot be used with AZURE_FEDERATED_TOKEN_FILE set ("${tokenFile}"): ManagedIdentityCredential would exchange that workload identity token instead; choose --azure-credential=workload-identity, or run the pod without the workload identity (label azure.workload.identity/use)`,
      );
      return undefined;
    }
    // ManagedIdentityCredential takes the endpoint the platform names before IMDS (App Service, Arc; Cloud Shell, ML).
    const tokenEndpoint = nonEmpty(environment.IDENTITY_ENDPOINT) ?? nonEmpty(environment.MSI_ENDPOINT);
    return { kind, ...(clientId === undefined ? {} : { clientId }), ...(tokenEndpoint === undefined ? {} : { tokenEndpoint }) };
  }
  const tenantId = inputs.tenantId ?? nonEmpty(environment.AZURE_TENANT_ID);
  const missing = [
    clientId === undefined ? "the identity's client id (--azure-client-id or AZURE_CLIENT_ID)" : undefined,
    tenantId === undefined ? 'the tenant (--azure-tenant-id, tenantId of --cloud-config or AZURE_TENANT_ID)' : undefined,
    tokenFile === undefined
      ? 'AZURE_FEDERATED_TOKEN_FILE, the service account token the workload identity webhook projects (pod label azure.workload.identity/use: "true")'
      : undefined,
  ].filter((piece): piece is string => piece !== undefined);
  if (missing.length > 0) {
    errors.push(`${chosen} is missing ${missing.join(', ')}`);
    return undefined;
  }
  if (tenantId !== inputs.tenantId && checkSubscriptionId('azure-tenant-id', tenantId)) {
    errors.push(`AZURE_TENANT_ID has invalid value "${tenantId}"; expected a GUID (the tenant ${chosen} signs in to)`);
  }
  return { kind, clientId: clientId as string, tenantId: tenantId as string, tokenFile: tokenFile as string };
}

/**
 * Which identity the chosen credential signs in as, for the messages that tell an operator which identity needs
 * which role.
 */
export function describeAzureCredential(choice: AzureCredentialChoice): string {
  if (choice.kind === 'workload-identity') return `the workload identity with client id ${choice.clientId} (tenant ${choice.tenantId})`;
  const endpoint = choice.tokenEndpoint === undefined ? "the node's IMDS" : `the token endpoint ${choice.tokenEndpoint}`;
  if (choice.clientId !== undefined) return `the user-assigned managed identity with client id ${choice.clientId}, through ${endpoint}`;
  return `the managed identity ${endpoint} gives without a client id (a system-assigned one, or the only user-assigned one)`;
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);
