// The ARM runtime both agents' Azure SDK clients stand on: the rate limiter sized to ARM's token buckets, the pipeline
// policies (retry with Retry-After, timeout, write fence, metrics), error classes and request counts. Provider-neutral:
// it imports the SDK clients' types only.
export {
  classifyArmError,
  classifyOperationFailure,
  describeFailure,
  isNetworkError,
  isNotFound,
  isRetriableStatus,
  oneLine,
  type ArmFailure,
  type ErrorCategory,
  type ErrorClass,
} from './arm-errors.js';
export type { ArmConnectionOptions, TokenCredential } from './arm-connection.js';
export { parseArmId, type ArmId } from './arm-id.js';
export { ArmMetrics, NO_RESPONSE_CODE } from './arm-metrics.js';
export { armOperationOf, ARM_OPERATIONS, OPERATION_POLL } from './arm-operation.js';
export {
  armMetricsPolicy,
  armRateLimitPolicy,
  armRetryPolicy,
  armTimeoutPolicy,
  armWriteFencePolicy,
  ArmRequestTimeoutError,
  ArmWriteFencedError,
  installPolicies,
  retryAfterMs,
  type RetryAfterCapped,
  type RetryOptions,
  warnRetryAfterCapped,
} from './pipeline-policies.js';
export {
  ArmRateLimiter,
  armBucketsShare,
  DEFAULT_ARM_BUCKETS,
  type BucketSettings,
  type RateLimiterOptions,
  type RateLimiterStats,
  type RequestClass,
  withArmFlow,
} from './rate-limiter.js';
export { ArmRequestCount } from './request-count.js';
