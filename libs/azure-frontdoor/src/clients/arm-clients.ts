import { CdnManagementClient } from '@azure/arm-cdn';
import { FrontDoorManagementClient } from '@azure/arm-frontdoor';
import { ArmMetrics, installPolicies, type ArmConnectionOptions } from '@fleet-gateway/arm-runtime';

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
