/**
 * What a failed ARM call means for the caller: `transient` (retry soon: 5xx, resets, conflicts with an operation in
 * progress), `throttled` (retry after ARM's Retry-After), `terminal` (a person must act: authorization, quota,
 * validation). Terminal failures carry Azure's code and a one-line cause.
 */
export type ErrorClass = 'transient' | 'throttled' | 'terminal';

export type ErrorCategory =
  'throttling' | 'server' | 'network' | 'conflict' | 'authorization' | 'quota' | 'validation' | 'not-found' | 'operation-failed' | 'unknown';

export interface ArmFailure {
  readonly class: ErrorClass;
  readonly category: ErrorCategory;
  readonly status?: number;
  /** Azure's error code (e.g. AuthorizationFailed, BadRequest), or the network error code. */
  readonly code: string;
  /** One line, without stack or request dump. */
  readonly cause: string;
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'REQUEST_SEND_ERROR']);
const TRANSIENT_OPERATION_CODES = new Set(['InternalServerError', 'ServiceUnavailable', 'GatewayTimeout', 'RetryableError', 'Conflict']);
const LRO_FAILURE = /^The long-running operation has failed\. ([^.]+)\. ([\s\S]*)$/;

export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function isQuota(code: string, message: string): boolean {
  return /quota|limit/i.test(code) || /^Limit reached|limit (?:of|reached|exceeded)|quota/i.test(message);
}

/** Whether a response status is worth another attempt (the retry policy and the classifier agree on this). */
export function isRetriableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** A 404 from ARM: the resource (or its parent) does not exist. */
export function isNotFound(error: unknown): boolean {
  return (error as { statusCode?: unknown } | undefined)?.statusCode === 404;
}

export function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

function classifyStatus(status: number, code: string, cause: string): ArmFailure {
  const base = { status, code, cause };
  if (status === 429) return { class: 'throttled', category: 'throttling', ...base };
  if (status === 409) return { class: 'transient', category: 'conflict', ...base };
  if (isRetriableStatus(status)) return { class: 'transient', category: 'server', ...base };
  if (status === 401 || status === 403) return { class: 'terminal', category: 'authorization', ...base };
  if (status === 404) return { class: 'terminal', category: 'not-found', ...base };
  if (isQuota(code, cause)) return { class: 'terminal', category: 'quota', ...base };
  return { class: 'terminal', category: 'validation', ...base };
}

/** Classifies whatever an SDK call threw: a RestError, a failed long-running operation, or a network error. */
export function classifyArmError(error: unknown): ArmFailure {
  const e = (error ?? {}) as { statusCode?: unknown; code?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  const code = typeof e.code === 'string' ? e.code : '';
  if (typeof e.statusCode === 'number') return classifyStatus(e.statusCode, code || `HTTP${e.statusCode}`, oneLine(message));
  if (isNetworkError(error)) return { class: 'transient', category: 'network', code, cause: oneLine(message) };
  const lro = LRO_FAILURE.exec(message);
  if (lro) return classifyOperationFailure(lro[1] ?? 'OperationFailed', lro[2] ?? '');
  return { class: 'terminal', category: 'unknown', code: code || 'Unknown', cause: oneLine(message) };
}

/**
 * A long-running operation that ended Failed, from the error of its operation status resource (or the SDK poller's
 * message): transient when ARM's code says the service faltered, else terminal.
 */
export function classifyOperationFailure(code: string, detail: string): ArmFailure {
  const transient = TRANSIENT_OPERATION_CODES.has(code);
  return {
    class: transient ? 'transient' : 'terminal',
    category: transient ? 'server' : isQuota(code, detail) ? 'quota' : 'operation-failed',
    code,
    cause: oneLine(`the operation ended Failed: ${detail}`),
  };
}

export function describeFailure(failure: ArmFailure): string {
  return `${failure.code}${failure.status ? ` (HTTP ${failure.status})` : ''}: ${failure.cause}`;
}
