import type { KubeStatus } from './kube-object.js';

/** A non-2xx answer from the API server, with the Status it sent. */
export class KubeApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: ${statusCode} ${reason}: ${message}`);
    this.name = 'KubeApiError';
  }

  static fromBody(statusCode: number, body: string, method: string, path: string): KubeApiError {
    let status: KubeStatus = {};
    try {
      status = JSON.parse(body) as KubeStatus;
    } catch {
      // Not every error body is a Status (proxies, a dying server); keep the text instead.
    }
    return KubeApiError.fromStatus(statusCode, { message: body.slice(0, 500), ...status }, method, path);
  }

  static fromStatus(statusCode: number, status: KubeStatus, method: string, path: string): KubeApiError {
    return new KubeApiError(statusCode, status.reason || 'Unknown', status.message ?? '', method, path);
  }
}

export const isStatusCode = (error: unknown, code: number): boolean => error instanceof KubeApiError && error.statusCode === code;
export const isNotFound = (error: unknown): boolean => isStatusCode(error, 404);
export const isConflict = (error: unknown): boolean => isStatusCode(error, 409);
export const isGone = (error: unknown): boolean => isStatusCode(error, 410);

// ABORT_ERR: a request that outran KubeClient's requestTimeoutMs (AbortSignal.timeout), e.g. a hung connection.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ABORT_ERR',
]);

/**
 * The API server answered with an error, or could not be reached at all (restarting, a network blip): either way a
 * transient condition for a reconcile to retry, never a bug to report with a stack trace.
 */
export const isKubeRequestFailure = (error: unknown): boolean =>
  error instanceof KubeApiError || CONNECTION_ERROR_CODES.has(String((error as { code?: unknown } | undefined)?.code));
