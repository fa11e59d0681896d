import { badRequest } from './errors.js';

export interface Page<T> {
  value: T[];
  nextLink?: string;
}

/**
 * One page of a list, ARM style: `nextLink` is an absolute URL carrying the api-version and a `$skiptoken`
 * (the SDKs follow it verbatim without adding query parameters).
 */
export function pageOf<T>(items: readonly T[], requestUrl: URL, baseUrl: string, pageSize: number): Page<T> {
  const token = requestUrl.searchParams.get('$skiptoken') ?? requestUrl.searchParams.get('$skipToken');
  const start = token === null ? 0 : Number(token);
  if (!Number.isInteger(start) || start < 0) {
    throw badRequest(`The '$skiptoken' query parameter '${token}' is invalid; expected a token from a previous nextLink.`, 'InvalidSkipToken');
  }
  const end = start + pageSize;
  const page: Page<T> = { value: items.slice(start, end) };
  if (end < items.length) {
    const next = new URL(requestUrl.pathname, baseUrl);
    next.searchParams.set('api-version', requestUrl.searchParams.get('api-version') ?? '');
    next.searchParams.set('$skiptoken', String(end));
    page.nextLink = next.toString();
  }
  return page;
}
