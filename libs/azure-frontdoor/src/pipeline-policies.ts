import type { CdnManagementClient } from '@azure/arm-cdn';
import type { ArmMetrics } from './arm-metrics.js';
import { armOperationOf } from './arm-operation.js';
import { isNetworkError, isRetriableStatus } from './arm-errors.js';
import { ArmRateLimiter, sleep } from './rate-limiter.js';

// The pipeline types, taken from the SDK client so that no extra package is needed.
type Pipeline = CdnManagementClient['pipeline'];
export type PipelinePolicy = Parameters<Pipeline['addPolicy']>[0];
type PipelineRequest = Parameters<PipelinePolicy['sendRequest']>[0];
type PipelineResponse = Awaited<ReturnType<PipelinePolicy['sendRequest']>>;

export interface RetryOptions {
  /** Further attempts after the first (default 4). */
  readonly maxRetries?: number;
  /** First backoff (default 500 ms); doubles per attempt, full jitter, at most `maxDelayMs` (default 30 s). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Replaceable for tests: how to wait, and the jitter source. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

const RETRY_POLICY_NAME = 'fleetGatewayArmRetry';
const RATE_LIMIT_POLICY_NAME = 'fleetGatewayArmRateLimit';
const METRICS_POLICY_NAME = 'fleetGatewayArmMetrics';

/** Retry-After as ARM sends it: `retry-after-ms` / `x-ms-retry-after-ms` (milliseconds), `retry-after` (seconds or a date). */
export function retryAfterMs(response: PipelineResponse | undefined, now = Date.now()): number | undefined {
  if (!response) return undefined;
  for (const name of ['retry-after-ms', 'x-ms-retry-after-ms']) {
    const value = Number(response.headers.get(name));
    if (response.headers.get(name) !== undefined && Number.isFinite(value) && value >= 0) return value;
  }
  const header = response.headers.get('retry-after');
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The only retry policy of the clients (it replaces the SDK's default rather than stacking on it): retries 408,
 * 409, 429 and 5xx responses and connection failures, waiting what Retry-After says or else an exponential backoff
 * with full jitter. Anything else returns at once, for the caller to classify.
 */
export function armRetryPolicy(options: RetryOptions = {}): PipelinePolicy {
  const maxRetries = options.maxRetries ?? 4;
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 30_000;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  return {
    name: RETRY_POLICY_NAME,
    async sendRequest(request: PipelineRequest, next) {
      for (let attempt = 0; ; attempt++) {
        let response: PipelineResponse | undefined;
        try {
          response = await next(request);
        } catch (error) {
          if (attempt >= maxRetries || !isNetworkError(error) || request.abortSignal?.aborted) throw error;
        }
        if (response && (attempt >= maxRetries || !isRetriableStatus(response.status))) return response;
        const delay = retryAfterMs(response) ?? Math.floor(random() * Math.min(cap, base * 2 ** attempt));
        await wait(delay, request.abortSignal as AbortSignal | undefined);
      }
    },
  };
}

/**
 * Takes a token of the shared limiter for every request that goes on the wire (retries and polls included); with
 * metrics, records how long each attempt waited for it (queueing behind other callers included).
 */
export function armRateLimitPolicy(limiter: ArmRateLimiter, metrics?: ArmMetrics): PipelinePolicy {
  return {
    name: RATE_LIMIT_POLICY_NAME,
    async sendRequest(request: PipelineRequest, next) {
      const started = performance.now();
      await limiter.acquire(request.method, request.abortSignal as AbortSignal | undefined);
      metrics?.waited(ArmRateLimiter.classify(request.method), (performance.now() - started) / 1000);
      return next(request);
    },
  };
}

/** Counts every HTTP attempt once, after the retry policy and the limiter, with the status ARM answered. */
export function armMetricsPolicy(metrics: ArmMetrics): PipelinePolicy {
  return {
    name: METRICS_POLICY_NAME,
    async sendRequest(request: PipelineRequest, next) {
      const operation = armOperationOf(request.url);
      try {
        const response = await next(request);
        metrics.attempted(operation, request.method, response.status);
        return response;
      } catch (error) {
        metrics.attempted(operation, request.method, undefined);
        throw error;
      }
    },
  };
}

/** Replaces the client's retry phase with ours and puts the limiter (and the metrics) right after it, per attempt. */
export function installPolicies(pipeline: Pipeline, limiter: ArmRateLimiter, retry: RetryOptions = {}, metrics?: ArmMetrics): void {
  pipeline.removePolicy({ phase: 'Retry' });
  pipeline.addPolicy(armRetryPolicy(retry), { phase: 'Retry' });
  pipeline.addPolicy(armRateLimitPolicy(limiter, metrics), { afterPhase: 'Retry' });
  if (metrics) pipeline.addPolicy(armMetricsPolicy(metrics), { afterPhase: 'Retry', afterPolicies: [RATE_LIMIT_POLICY_NAME] });
}
