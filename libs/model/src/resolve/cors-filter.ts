import type { HTTPRouteFilter } from '@fleet-gateway/api-types';
import { MAX_HEADER_ACTION_VALUE, MAX_HEADER_CONDITION_VALUE } from '../model/afd-value-limits.js';
import { escapeRegex } from '../model/escape-regex.js';
import type { CorsPolicy, ModelFilter } from '../model/model-types.js';
import type { Converted } from './rule-matches.js';

type CorsFilter = NonNullable<HTTPRouteFilter['cors']>;

/**
 * The conditions a CORS rule adds to its match's (`Origin`; on the preflight rule also the method and
 * `Access-Control-Request-Method`): a match keeps room for them within AFD's conditions per rule.
 */
export const CORS_RULE_CONDITIONS = 3;

/** The methods `allowMethods` can name (the CRD's enum): what `*` stands for when it must not be sent as `*`. */
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];

/** The CRD default of `maxAge` (seconds). */
const DEFAULT_MAX_AGE = 5;

const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' };

/** The CRD's CORSOrigin pattern: `*`, or `scheme://host[:port]` where host may be `*` or start with `*.`. */
const ORIGIN = /^(https?):\/\/([^:/]+)(?::(\d+))?$/;

type ParsedOrigin = { readonly kind: 'exact'; readonly value: string } | { readonly kind: 'wildcard'; readonly pattern: string };

/**
 * A configured origin as browsers send it (`Origin` omits the scheme's default port; hosts are lower-case); a `*` in
 * the host matches any DNS labels to its left ("a greedy match to the left"), never the port or the path.
 */
function parseOrigin(origin: string): ParsedOrigin | undefined {
  const parts = ORIGIN.exec(origin);
  if (!parts) return undefined;
  const [, scheme = '', rawHost = '', port] = parts;
  const host = rawHost.toLowerCase();
  const suffix = port === undefined || port === DEFAULT_PORT[scheme] ? '' : `:${port}`;
  if (!host.includes('*')) return { kind: 'exact', value: `${scheme}://${host}${suffix}` };
  const hostPattern = host === '*' ? '[^:/]+' : `[^:/]+${escapeRegex(host.slice(1))}`;
  return { kind: 'wildcard', pattern: `^${escapeRegex(`${scheme}://`)}${hostPattern}${escapeRegex(suffix)}$` };
}

/** `*` cannot be sent with credentials (Fetch), and AFD header actions cannot echo a request header instead. */
function echoProblem(field: string): string {
  return `CORS ${field} "*" with allowCredentials true must echo the request's own value, which AFD header actions cannot do (their values are literal); list the values instead, or leave allowCredentials unset`;
}

function listHeader(field: string, values: readonly string[] | undefined, credentials: boolean): Converted<string | undefined> {
  if (values === undefined || values.length === 0) return { ok: true, value: undefined };
  if (values.includes('*') && credentials) return { ok: false, problem: echoProblem(field) };
  const value = values.join(', ');
  if (value.length > MAX_HEADER_ACTION_VALUE) {
    return {
      ok: false,
      problem: `CORS ${field} makes a header value of ${value.length} characters; AFD header actions take values of at most ${MAX_HEADER_ACTION_VALUE}`,
    };
  }
  return { ok: true, value };
}

function originsOf(cors: CorsFilter, credentials: boolean): Converted<Pick<CorsPolicy, 'exactOrigins' | 'wildcardOrigins' | 'anyOrigin'>> {
  const configured = cors.allowOrigins ?? [];
  if (configured.includes('*'))
    return credentials ? { ok: false, problem: echoProblem('allowOrigins') } : { ok: true, value: { exactOrigins: [], wildcardOrigins: [], anyOrigin: true } };
  const exact = new Set<string>();
  const wildcard = new Set<string>();
  for (const origin of configured) {
    const parsed = parseOrigin(origin);
    if (!parsed) return { ok: false, problem: `CORS allowOrigins has "${origin}"; expected "*" or scheme://host[:port] with scheme http or https` };
    if (parsed.kind === 'wildcard' && credentials) {
      return {
        ok: false,
        problem: `CORS allowOrigins "${origin}" with allowCredentials true must echo the matching Origin, which AFD header actions cannot do (their values are literal); list the origins instead`,
      };
    }
    const conditionValue = parsed.kind === 'exact' ? parsed.value : parsed.pattern;
    if (conditionValue.length > MAX_HEADER_CONDITION_VALUE) {
      return {
        ok: false,
        problem: `CORS allowOrigins "${origin}" makes an Origin condition of ${conditionValue.length} characters; AFD rule conditions take header values of at most ${MAX_HEADER_CONDITION_VALUE}`,
      };
    }
    if (parsed.kind === 'exact') exact.add(parsed.value);
    else wildcard.add(parsed.pattern);
  }
  return { ok: true, value: { exactOrigins: [...exact], wildcardOrigins: [...wildcard], anyOrigin: false } };
}

/** Converts a CORS filter to the response headers AFD's rules set, or says which field AFD cannot honour. */
export function convertCors(cors: CorsFilter): Converted<ModelFilter> {
  const credentials = cors.allowCredentials === true;
  const origins = originsOf(cors, credentials);
  if (!origins.ok) return origins;
  // `*` with credentials: every method, listed (a browser accepts the list as it would the echoed method).
  const methods = cors.allowMethods?.includes('*') && credentials ? ALL_METHODS : cors.allowMethods;
  const headers = [
    listHeader('allowMethods', methods, credentials),
    listHeader('allowHeaders', cors.allowHeaders, credentials),
    listHeader('exposeHeaders', cors.exposeHeaders, credentials),
  ];
  const problem = headers.find((h) => !h.ok);
  if (problem && !problem.ok) return problem;
  const [allowMethods, allowHeaders, exposeHeaders] = headers.map((h) => (h.ok ? h.value : undefined));
  return {
    ok: true,
    value: {
      type: 'CORS',
      ...origins.value,
      allowCredentials: credentials,
      ...(allowMethods === undefined ? {} : { allowMethods }),
      ...(allowHeaders === undefined ? {} : { allowHeaders }),
      ...(exposeHeaders === undefined ? {} : { exposeHeaders }),
      maxAge: cors.maxAge ?? DEFAULT_MAX_AGE,
    },
  };
}
