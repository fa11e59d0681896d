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
export function managedIdentityEnvironment(emulator: { identityEndpoint: string; identityHeader: string }): {
  IDENTITY_ENDPOINT: string;
  IDENTITY_HEADER: string;
} {
  return { IDENTITY_ENDPOINT: emulator.identityEndpoint, IDENTITY_HEADER: emulator.identityHeader };
}

/**
 * A TokenCredential for a test process that plays an operator or a member against an emulator that checks tokens
 * (`armAuthentication: 'issued-tokens'`): it asks the emulator's managed-identity endpoint over App Service's protocol,
 * as ManagedIdentityCredential would, without touching this process's environment.
 */
export function emulatorIdentityCredential(emulator: { identityEndpoint: string; identityHeader: string }) {
  return {
    getToken: async (scopes: string | string[]) => {
      const scope = Array.isArray(scopes) ? (scopes[0] ?? '') : scopes;
      const url = new URL(emulator.identityEndpoint);
      url.searchParams.set('api-version', '2019-08-01');
      url.searchParams.set('resource', scope.replace(/\/\.default$/, '/'));
      const response = await fetch(url, { headers: { 'X-IDENTITY-HEADER': emulator.identityHeader } });
      if (!response.ok) throw new Error(`the emulator's token endpoint answered ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as { access_token: string; expires_on: string | number };
      return { token: body.access_token, expiresOnTimestamp: Number(body.expires_on) * 1000 };
    },
  };
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
