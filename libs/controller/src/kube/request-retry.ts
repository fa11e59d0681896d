/** Why KubeClient sent a request again; every reason has a counter from the start (ControllerMetrics). */
export const requestRetryReasons = ['throttled', 'server-error'] as const;
export type RequestRetryReason = (typeof requestRetryReasons)[number];

export interface RequestRetry {
  readonly reason: RequestRetryReason;
  readonly delayMs: number;
}

/** The wait on a 429 without a usable Retry-After; API Priority and Fairness itself always sends 1 s or more. */
export const THROTTLED_DEFAULT_DELAY_MS = 1_000;

/**
 * Whether to send a request again after the API server answered `statusCode`, and after how long: client-go's
 * `checkWait` (rest/with_retry.go) — a 429, or any 5xx that carries Retry-After, waits the header's whole seconds.
 * Two departures: a 429 without the header still waits `THROTTLED_DEFAULT_DELAY_MS` (client-go would give up), and
 * the wait is capped at `maxDelayMs`, so a misbehaving proxy cannot park a reconcile for minutes.
 */
export function requestRetry(statusCode: number, retryAfter: string | undefined, maxDelayMs: number): RequestRetry | undefined {
  const seconds = retryAfter !== undefined && /^\s*\d+\s*$/.test(retryAfter) ? Number(retryAfter) : undefined;
  if (statusCode === 429) return { reason: 'throttled', delayMs: Math.min(seconds === undefined ? THROTTLED_DEFAULT_DELAY_MS : seconds * 1_000, maxDelayMs) };
  if (statusCode >= 500 && seconds !== undefined) return { reason: 'server-error', delayMs: Math.min(seconds * 1_000, maxDelayMs) };
  return undefined;
}
