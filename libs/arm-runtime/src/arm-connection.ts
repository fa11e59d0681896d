import type { TokenCredential } from '@azure/identity';
import type { Registry } from 'prom-client';
import type { RetryOptions } from './pipeline-policies.js';
import type { ArmRateLimiter } from './rate-limiter.js';

export type { TokenCredential };

/** How an agent's ARM clients connect: credential, endpoint, trust, and the process-wide limiter, retry and metrics. */
export interface ArmConnectionOptions {
  readonly credential: TokenCredential;
  /** The subscription the clients address (the agent-wide setting). */
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
   * it once: one client factory call per registry.
   */
  readonly metricsRegistry?: Registry;
  /** Asked before every write attempt (the leader Lease): with a reason, the write is not sent (ArmWriteFencedError). */
  readonly writeFence?: () => string | undefined;
}
