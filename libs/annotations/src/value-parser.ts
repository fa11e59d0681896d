/** Parses one annotation value. `expected` is the human form used in errors and in the README table. */
export interface ValueParser<T> {
  readonly expected: string;
  parse(raw: string): Parsed<T>;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

const invalid = { ok: false } as const;

function valid<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

/** Exact, case-sensitive match against a closed set: "Premium_azurefrontdoor" is a typo, not a synonym. */
export function oneOf<const V extends string>(values: readonly V[]): ValueParser<V> {
  const quoted = values.map((v) => `"${v}"`);
  const expected = quoted.length === 1 ? `${quoted[0]}` : quoted.length === 2 ? `${quoted[0]} or ${quoted[1]}` : `one of ${quoted.join(', ')}`;
  return {
    expected,
    parse: (raw) => ((values as readonly string[]).includes(raw) ? valid(raw as V) : invalid),
  };
}

/** A plain decimal integer: no sign, no spaces, no leading zeros, no exponent. */
export function integerInRange(min: number, max: number, unit: string): ValueParser<number> {
  return {
    expected: `an integer from ${min} to ${max} (${unit})`,
    parse: (raw) => {
      if (!/^(0|[1-9][0-9]{0,9})$/.test(raw)) return invalid;
      const value = Number(raw);
      return value >= min && value <= max ? valid(value) : invalid;
    },
  };
}

const PATH_CHARS = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

/**
 * An origin-relative request path: starts with "/", no scheme, host, query or fragment (the upstream rule was
 * Go's url.ParseRequestURI plus those exclusions). "//x" is refused because it would parse as a host.
 */
export function requestPath(): ValueParser<string> {
  return {
    expected: 'an absolute path such as "/healthz" (starts with "/", no scheme, host, query or fragment)',
    parse: (raw) => (PATH_CHARS.test(raw) && !raw.startsWith('//') ? valid(raw) : invalid),
  };
}

const DNS_LABEL = '[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?';
const DNS_SUBDOMAIN = new RegExp(`^${DNS_LABEL}(\\.${DNS_LABEL})*$`);

/** A lowercase RFC 1123 subdomain, at most 253 characters (the Kubernetes DNS-1123 subdomain rule). */
export function dnsSubdomain(): ValueParser<string> {
  return {
    expected: 'a lowercase DNS-1123 subdomain such as "app.internal.example.com" (at most 253 characters)',
    parse: (raw) => (raw.length <= 253 && DNS_SUBDOMAIN.test(raw) ? valid(raw) : invalid),
  };
}

/** A value that is never accepted: the key exists only to be refused with a clear message. */
export function reserved(why: string): ValueParser<never> {
  return { expected: `no value (${why})`, parse: () => invalid };
}

export function makeParser<T>(expected: string, parse: (raw: string) => T | undefined): ValueParser<T> {
  return {
    expected,
    parse: (raw) => {
      const value = parse(raw);
      return value === undefined ? invalid : valid(value);
    },
  };
}
