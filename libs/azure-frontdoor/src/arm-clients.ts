import { CdnManagementClient } from '@azure/arm-cdn';
import { FrontDoorManagementClient } from '@azure/arm-frontdoor';
import type { Registry } from 'prom-client';
import { ArmMetrics } from './arm-metrics.js';
import { installPolicies, type RetryOptions } from './pipeline-policies.js';
import type { ArmRateLimiter } from './rate-limiter.js';

/** The credential type the SDK clients take (@azure/core-auth's TokenCredential). */
export type TokenCredential = ConstructorParameters<typeof CdnManagementClient>[0];

export interface ArmConnectionOptions {
  readonly credential: TokenCredential;
  /** The subscription of the AFD profiles (the controller-wide setting). */
  readonly subscriptionId: string;
  /** ARM endpoint; the emulator is just another endpoint (default: public Azure). */
  readonly endpoint?: string;
  /** Extra trust, e.g. the emulator's CA (`{ ca }`); replaces the default CA list for these clients. */
  readonly tlsOptions?: { readonly ca?: string };
  /** The process-wide limiter: pass the same instance to every client factory of the process. */
  readonly rateLimiter: ArmRateLimiter;
  readonly retry?: RetryOptions;
  readonly userAgentPrefix?: string;
  /**
   * Where the ARM metrics go (requests by resource type, method and status; 429s; rate-limiter waits), counted per
   * HTTP attempt by a policy in every client's pipeline. Without it, no metric is recorded. The metrics register on
   * it once: one createFrontDoorClients per registry (the hub creates its clients once).
   */
  readonly metricsRegistry?: Registry;
  /** Asked before every write attempt (the hub's leader Lease): with a reason, the write is not sent (ArmWriteFencedError). */
  readonly writeFence?: () => string | undefined;
}

/**
 * The SDK clients this provider uses: arm-cdn for AFD (the only code in the hub that calls it) and arm-frontdoor to
 * read WAF policies. WAF policies may live in other subscriptions, hence one client per
 * subscription, created on first use.
 */
export interface FrontDoorClients {
  readonly cdn: CdnManagementClient;
  wafPolicies(subscriptionId: string): FrontDoorManagementClient['policies'];
}

function commonOptions(options: ArmConnectionOptions) {
  return {
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.tlsOptions ? { tlsOptions: { ...options.tlsOptions } } : {}),
    userAgentOptions: { userAgentPrefix: options.userAgentPrefix ?? 'fleet-hub-gateway' },
  };
}

export function createFrontDoorClients(options: ArmConnectionOptions): FrontDoorClients {
  const metrics = options.metricsRegistry ? new ArmMetrics(options.metricsRegistry) : undefined;
  const cdn = new CdnManagementClient(options.credential, options.subscriptionId, commonOptions(options));
  installPolicies(cdn.pipeline, options.rateLimiter, options.retry, metrics, options.writeFence);
  const waf = new Map<string, FrontDoorManagementClient>();
  return {
    cdn,
    wafPolicies(subscriptionId: string) {
      const key = subscriptionId.toLowerCase();
      let client = waf.get(key);
      if (!client) {
        client = new FrontDoorManagementClient(options.credential, subscriptionId, commonOptions(options));
        installPolicies(client.pipeline, options.rateLimiter, options.retry, metrics, options.writeFence);
        waf.set(key, client);
      }
      return client.policies;
    },
  };
}
