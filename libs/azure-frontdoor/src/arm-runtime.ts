// The provider-neutral ARM runtime (rate limiter, retry and rate-limit policies, error classes, request counts), as
// `@fleet-gateway/azure-frontdoor/arm-runtime`: the member agent's Microsoft.Network clients use the same pieces
// without loading the Front Door provider (these modules import the SDK clients' types only).
export * from './arm-errors.js';
export { ArmRateLimiter, armBucketsShare, DEFAULT_ARM_BUCKETS, type BucketSettings, type RateLimiterOptions, type RateLimiterStats, type RequestClass } from './rate-limiter.js';
export { armRateLimitPolicy, armRetryPolicy, armTimeoutPolicy, armWriteFencePolicy, ArmRequestTimeoutError, ArmWriteFencedError, installPolicies, type RetryAfterCapped, type RetryOptions, warnRetryAfterCapped } from './pipeline-policies.js';
export { ArmRequestCount } from './request-count.js';
export type { ArmConnectionOptions, TokenCredential } from './arm-clients.js';
