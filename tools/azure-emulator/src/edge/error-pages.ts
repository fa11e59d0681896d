import { randomBytes } from 'node:crypto';

/** An `x-azure-ref` value in AFD's shape: the UTC time, then a request-unique suffix. */
export function newAzureRef(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(8).toString('hex')}`;
}

export type EdgeErrorKind = 'not-found' | 'endpoint-disabled' | 'no-origin' | 'origin-unreachable';

const PAGES: Record<EdgeErrorKind, { status: number; title: string; text: string }> = {
  'not-found': {
    status: 404,
    title: 'Page not found',
    text: 'The requested resource was not found: no route on this host matches the request.',
  },
  'endpoint-disabled': {
    status: 404,
    title: 'Page not found',
    text: 'The endpoint serving this host is disabled.',
  },
  'no-origin': {
    status: 503,
    title: "Our services aren't available right now",
    text: "We're working to restore all services as soon as possible. Please check back soon.",
  },
  'origin-unreachable': {
    status: 503,
    title: "Our services aren't available right now",
    text: "We're working to restore all services as soon as possible. Please check back soon.",
  },
};

/** An AFD-like HTML error page; the reference is in the body as on AFD, and in `x-azure-ref`. */
export function errorPage(kind: EdgeErrorKind, azureRef: string): { status: number; body: string } {
  const page = PAGES[kind];
  const body =
    `<!DOCTYPE html><html><head><title>${page.title}</title></head><body>` + `<h2>${page.title}</h2><p>${page.text}</p><p>${azureRef}</p></body></html>`;
  return { status: page.status, body };
}
