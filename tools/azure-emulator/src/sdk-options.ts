/** A TokenCredential that hands out a fixed token: the emulator accepts any Bearer token. */
export const stubCredential = {
  getToken: async () => ({ token: 'azure-emulator-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
};

/**
 * Options that point an unmodified Azure SDK management client at the emulator: its endpoint, and its CA trusted
 * through the client's TLS options (not NODE_EXTRA_CA_CERTS, which replaces the machine's value for workers).
 */
export function sdkClientOptions(emulator: { armEndpoint: string; caCertificate: string }, maxRetries = 0) {
  return {
    endpoint: emulator.armEndpoint,
    tlsOptions: { ca: emulator.caCertificate },
    retryOptions: { maxRetries },
  };
}

/**
 * The environment App Service gives a process with a managed identity, pointing at the emulator's token endpoint:
 * with it (and nothing else), DefaultAzureCredential's ManagedIdentityCredential takes its tokens from the emulator.
 */
export function managedIdentityEnvironment(emulator: { identityEndpoint: string; identityHeader: string }): { IDENTITY_ENDPOINT: string; IDENTITY_HEADER: string } {
  return { IDENTITY_ENDPOINT: emulator.identityEndpoint, IDENTITY_HEADER: emulator.identityHeader };
}

/**
 * The environment variables that would make DefaultAzureCredential choose another credential (environment, workload
 * identity, a credential chain's selection) or another managed-identity source than App Service's: a process meant
 * to take the emulator's tokens has none of them.
 */
export const OTHER_CREDENTIAL_VARIABLES = [
  'AZURE_TOKEN_CREDENTIALS',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_CLIENT_CERTIFICATE_PATH',
  'AZURE_TENANT_ID',
  'AZURE_USERNAME',
  'AZURE_FEDERATED_TOKEN_FILE',
  'IDENTITY_SERVER_THUMBPRINT',
  'MSI_ENDPOINT',
  'MSI_SECRET',
  'IMDS_ENDPOINT',
  'AZURE_POD_IDENTITY_AUTHORITY_HOST',
] as const;

/** Poll fast in tests: the emulator's operations take milliseconds (the SDK default is 2 s between polls). */
export const FAST_POLLING = { updateIntervalInMs: 5 };
