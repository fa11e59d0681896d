import { KubeApiError } from './kube-api-error.js';

/** What Node reports when the API server cannot be reached or the connection broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a request to an API server failed in a way a reconcile should retry, not report as a bug: an API error
 * answer, a refused or broken connection (an API server restarting), or the request timeout.
 */
export function isApiRequestFailure(error: unknown): boolean {
  if (error instanceof KubeApiError) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}
