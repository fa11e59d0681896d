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
  /**
   * How long one attempt may wait for ARM's answer (default 90 s, beyond ARM's own 60 s bound on a resource
   * provider's answer, after which ARM answers 504 itself (ARM RPC, common API details: Client Request Timeout), so
   * only a dead connection or a hung front end is cut): the attempt is aborted and retried as a network failure
   * within `maxRetries`.
   */
  readonly requestTimeoutMs?: number;
  /** The longest Retry-After obeyed (default 60 s): a longer one is cut to it, and said through `onRetryAfterCapped`. */
  readonly maxRetryAfterMs?: number;
  readonly onRetryAfterCapped?: (capped: RetryAfterCapped) => void;
}

/** A Retry-After longer than the cap, as the retry policy reports it (for a log line). */
export interface RetryAfterCapped {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly retryAfterMs: number;
  readonly waitedMs: number;
}

/** The agents' `onRetryAfterCapped`: one warning line on their logger. */
export function warnRetryAfterCapped(logger: { warn(message: string, meta: object): unknown }): (capped: RetryAfterCapped) => void {
  return (capped) => logger.warn('ARM asked to wait longer than the Retry-After cap; waiting the cap', { ...capped });
}

const DEFAULT_REQUEST_TIMEOUT_MS = 90_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

const RETRY_POLICY_NAME = 'fleetGatewayArmRetry';
const RATE_LIMIT_POLICY_NAME = 'fleetGatewayArmRateLimit';
const METRICS_POLICY_NAME = 'fleetGatewayArmMetrics';
const TIMEOUT_POLICY_NAME = 'fleetGatewayArmTimeout';
const WRITE_FENCE_POLICY_NAME = 'fleetGatewayArmWriteFence';

/** A write the fence stopped before it went on the wire (the leader Lease is no longer valid). */
export class ArmWriteFencedError extends Error {
  readonly code = 'WriteFenced';

  constructor(
    method: string,
    url: string,
    readonly reason: string,
  ) {
    super(`${method} ${new URL(url).pathname} was not sent: ${reason}`);
    this.name = 'ArmWriteFencedError';
  }
}

/** An attempt ARM did not answer within the request timeout; `ETIMEDOUT` makes it a network failure (transient, retried). */
export class ArmRequestTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(method: string, url: string, timeoutMs: number) {
    super(`ARM gave no answer to ${method} ${new URL(url).pathname} within ${timeoutMs / 1000} s`);
    this.name = 'ArmRequestTimeoutError';
  }
}

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
 * 409, 429 and 5xx responses and connection failures (timeouts included), waiting what Retry-After says (at most
 * `maxRetryAfterMs`) or else an exponential backoff with full jitter. Anything else returns at once, for the caller
 * to classify.
 */
export function armRetryPolicy(options: RetryOptions = {}): PipelinePolicy {
  const maxRetries = options.maxRetries ?? 4;
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 30_000;
  const retryAfterCap = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  const delayAfter = (request: PipelineRequest, response: PipelineResponse | undefined, attempt: number): number => {
    const hinted = retryAfterMs(response);
    if (hinted === undefined) return Math.floor(random() * Math.min(cap, base * 2 ** attempt));
    if (hinted <= retryAfterCap) return hinted;
    options.onRetryAfterCapped?.({ method: request.method, url: request.url, status: response?.status ?? 0, retryAfterMs: hinted, waitedMs: retryAfterCap });
    return retryAfterCap;
  };
  // A long-running operation's poller waits what its responses' Retry-After says: the answer it reads says the cap.
  const capRetryAfter = (request: PipelineRequest, response: PipelineResponse): PipelineResponse => {
    const hinted = retryAfterMs(response);
    if (hinted === undefined || hinted <= retryAfterCap) return response;
    options.onRetryAfterCapped?.({ method: request.method, url: request.url, status: response.status, retryAfterMs: hinted, waitedMs: retryAfterCap });
    for (const name of ['retry-after-ms', 'x-ms-retry-after-ms']) response.headers.delete(name);
    response.headers.set('retry-after', String(Math.ceil(retryAfterCap / 1000)));
    return response;
  };
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
        if (response && (attempt >= maxRetries || !isRetriableStatus(response.status))) return capRetryAfter(request, response);
        await wait(delayAfter(request, response, attempt), request.abortSignal as AbortSignal | undefined);
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

/**
 * Bounds one attempt: its signal is the caller's combined with a timer, and an attempt the timer ended fails with
 * ArmRequestTimeoutError (the caller's own abort stays an abort). It sits after the limiter, so waiting for a token
 * is not counted against ARM.
 */
export function armTimeoutPolicy(timeoutMs: number): PipelinePolicy {
  return {
    name: TIMEOUT_POLICY_NAME,
    async sendRequest(request: PipelineRequest, next) {
      const caller = request.abortSignal as AbortSignal | undefined;
      const timer = AbortSignal.timeout(timeoutMs);
      request.abortSignal = caller ? AbortSignal.any([caller, timer]) : timer;
      try {
        return await next(request);
      } catch (error) {
        if (timer.aborted && !caller?.aborted) throw new ArmRequestTimeoutError(request.method, request.url, timeoutMs);
        throw error;
      } finally {
        request.abortSignal = caller;
      }
    },
  };
}

/**
 * Asks the fence before every write attempt, retries included: a write the retry policy would resend after a long
 * Retry-After (or a pause of the whole process) is not sent once the fence gives a reason. Reads pass.
 */
export function armWriteFencePolicy(fence: () => string | undefined): PipelinePolicy {
  return {
    name: WRITE_FENCE_POLICY_NAME,
    async sendRequest(request: PipelineRequest, next) {
      const reason = ArmRateLimiter.classify(request.method) === 'writes' ? fence() : undefined;
      if (reason) throw new ArmWriteFencedError(request.method, request.url, reason);
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

/**
 * Replaces the client's retry phase with ours and puts the write fence (when given), the limiter (and the metrics),
 * then the per-attempt timeout, right after it.
 */
export function installPolicies(
  pipeline: Pipeline,
  limiter: ArmRateLimiter,
  retry: RetryOptions = {},
  metrics?: ArmMetrics,
  writeFence?: () => string | undefined,
): void {
  pipeline.removePolicy({ phase: 'Retry' });
  pipeline.addPolicy(armRetryPolicy(retry), { phase: 'Retry' });
  pipeline.addPolicy(armRateLimitPolicy(limiter, metrics), { afterPhase: 'Retry' });
  // Before the limiter: a write that is not sent takes no token.
  if (writeFence) pipeline.addPolicy(armWriteFencePolicy(writeFence), { afterPhase: 'Retry', beforePolicies: [RATE_LIMIT_POLICY_NAME] });
  if (metrics) pipeline.addPolicy(armMetricsPolicy(metrics), { afterPhase: 'Retry', afterPolicies: [RATE_LIMIT_POLICY_NAME] });
  const before = metrics ? [RATE_LIMIT_POLICY_NAME, METRICS_POLICY_NAME] : [RATE_LIMIT_POLICY_NAME];
  pipeline.addPolicy(armTimeoutPolicy(retry.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS), { afterPhase: 'Retry', afterPolicies: before });
}
