import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CorsPolicy, ModelFilter } from '../model/model-types.js';
import { convertCors } from './cors-filter.js';
import { convertFilter } from './rule-filters.js';

type Cors = Parameters<typeof convertCors>[0];

function policy(cors: Cors): CorsPolicy {
  const converted = convertCors(cors);
  if (!converted.ok) throw new Error(converted.problem);
  if (converted.value.type !== 'CORS') throw new Error(`not a CORS filter: ${converted.value.type}`);
  return converted.value;
}

const problem = (cors: Cors): string | undefined => {
  const converted = convertCors(cors);
  return converted.ok ? undefined : converted.problem;
};

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);

describe('CORS filter', () => {
  it('listed origins are kept as browsers send them: host lower-cased, the default port dropped, each once', () => {
    const { exactOrigins, wildcardOrigins, anyOrigin } = policy({
      allowOrigins: ['https://App.example.com', 'https://app.example.com:443', 'http://a.example.com:80', 'http://a.example.com:8080'],
    });
    expect({ exactOrigins, wildcardOrigins, anyOrigin }).toEqual({
      exactOrigins: ['https://app.example.com', 'http://a.example.com', 'http://a.example.com:8080'],
      wildcardOrigins: [],
      anyOrigin: false,
    });
  });

  it('a wildcard host matches any labels to its left, with that scheme and port only (property)', () => {
    const [pattern = ''] = policy({ allowOrigins: ['https://*.example.com'] }).wildcardOrigins;
    const matches = (origin: string): boolean => new RegExp(pattern).test(origin);
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), (labels) => {
        const host = `${labels.join('.')}.example.com`;
        expect([
          matches(`https://${host}`),
          matches(`http://${host}`),
          matches(`https://${host}:8443`),
          matches(`https://${labels.join('.')}.example.org`),
        ]).toEqual([true, false, false, false]);
      }),
    );
    expect([matches('https://example.com'), matches('https://aexample.com')]).toEqual([false, false]);
  });

  it('"*" allows any origin; the defaults: maxAge 5, no credentials, no optional headers', () => {
    expect(policy({ allowOrigins: ['*'] })).toEqual({
      type: 'CORS',
      exactOrigins: [],
      wildcardOrigins: [],
      anyOrigin: true,
      allowCredentials: false,
      maxAge: 5,
    });
  });

  it('header lists are joined with ", "; allowMethods "*" with credentials lists every method instead', () => {
    const listed = policy({
      allowOrigins: ['https://a.example.com'],
      allowMethods: ['GET', 'PUT'],
      allowHeaders: ['x-a', 'x-b'],
      exposeHeaders: ['x-c'],
      maxAge: 60,
    });
    expect([listed.allowMethods, listed.allowHeaders, listed.exposeHeaders, listed.maxAge]).toEqual(['GET, PUT', 'x-a, x-b', 'x-c', 60]);
    expect(policy({ allowOrigins: ['https://a.example.com'], allowMethods: ['*'] }).allowMethods).toBe('*');
    expect(policy({ allowOrigins: ['https://a.example.com'], allowMethods: ['*'], allowCredentials: true }).allowMethods).toBe(
      'GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH',
    );
  });

  it.each([
    [{ allowOrigins: ['*'], allowCredentials: true }, 'CORS allowOrigins "*" with allowCredentials true'],
    [{ allowOrigins: ['https://*.example.com'], allowCredentials: true }, 'CORS allowOrigins "https://*.example.com" with allowCredentials true'],
    [{ allowOrigins: ['https://a.example.com'], allowHeaders: ['*'], allowCredentials: true }, 'CORS allowHeaders "*" with allowCredentials true'],
    [{ allowOrigins: ['https://a.example.com'], exposeHeaders: ['*'], allowCredentials: true }, 'CORS exposeHeaders "*" with allowCredentials true'],
    [{ allowOrigins: ['ftp://a.example.com'] }, 'CORS allowOrigins has "ftp://a.example.com"; expected'],
    [
      { allowOrigins: ['https://a.example.com'], allowHeaders: Array.from({ length: 64 }, (_, i) => `x-header-number-${i}`) },
      'CORS allowHeaders makes a header value of',
    ],
    [
      { allowOrigins: [`https://${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`] },
      'AFD rule conditions take header values of at most 256',
    ],
  ])('refused, naming the field and what is expected: %j', (cors, message) => {
    expect(problem(cors)).toContain(message);
  });
});

describe('RequestRedirect status codes', () => {
  it.each([301, 302, 307, 308] as const)('%i is what AFD redirects with', (statusCode) => {
    expect(convertFilter({ type: 'RequestRedirect', requestRedirect: { statusCode } })).toEqual({
      ok: true,
      value: { type: 'RequestRedirect', statusCode } satisfies ModelFilter,
    });
  });

  it('303 is refused with the value and the codes expected', () => {
    expect(convertFilter({ type: 'RequestRedirect', requestRedirect: { statusCode: 303 } })).toEqual({
      ok: false,
      problem: 'RequestRedirect statusCode 303 is not supported (AFD redirects have no 303); expected 301, 302, 307 or 308',
    });
  });

  it('the default is 302', () => {
    expect(convertFilter({ type: 'RequestRedirect', requestRedirect: {} })).toEqual({ ok: true, value: { type: 'RequestRedirect', statusCode: 302 } });
  });
});
