import type { EdgeRequestOptions, EdgeResponse } from './backends.js';

/** The CORS response headers (Fetch), lower-cased as Node reads them. */
const CORS_RESPONSE_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-expose-headers',
];

/** The CORS headers of an edge answer, only those present. */
export function corsHeadersOf(response: EdgeResponse): Record<string, unknown> {
  return Object.fromEntries(CORS_RESPONSE_HEADERS.flatMap((name) => (response.headers[name] === undefined ? [] : [[name, response.headers[name]]])));
}

/** A browser's preflight from `origin` for a PUT with an `x-token` header. */
export function preflightFrom(origin: string): EdgeRequestOptions {
  return { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' } };
}
