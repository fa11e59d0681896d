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

/** Poll fast in tests: the emulator's operations take milliseconds (the SDK default is 2 s between polls). */
export const FAST_POLLING = { updateIntervalInMs: 5 };
