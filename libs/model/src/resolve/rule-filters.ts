import type { HTTPRouteFilter } from '@fleet-gateway/api-types';
import { MAX_HEADER_ACTION_VALUE } from '../model/afd-value-limits.js';
import type { HeaderEdits, ModelFilter, RedirectStatusCode } from '../model/model-types.js';
import { convertCors } from './cors-filter.js';
import type { Converted } from './rule-matches.js';

const WELL_KNOWN_PORT = { http: 80, https: 443 } as const;

const SUPPORTED_FILTERS = 'expected RequestHeaderModifier, ResponseHeaderModifier, RequestRedirect, URLRewrite or CORS';

/** The status codes AFD's UrlRedirect answers with (redirectType Moved, Found, TemporaryRedirect, PermanentRedirect). */
const REDIRECT_STATUS_CODES: readonly number[] = [301, 302, 307, 308] satisfies RedirectStatusCode[];

function headerEdits(edits: NonNullable<HTTPRouteFilter['requestHeaderModifier']>): HeaderEdits {
  return { set: edits.set ?? [], add: edits.add ?? [], remove: edits.remove ?? [] };
}

/** Each set or add becomes an AFD header action, whose value AFD limits in length. */
function convertHeaderEdits(
  type: 'RequestHeaderModifier' | 'ResponseHeaderModifier',
  modifier: NonNullable<HTTPRouteFilter['requestHeaderModifier']>,
): Converted<ModelFilter> {
  const edits = headerEdits(modifier);
  const long = [...edits.set, ...edits.add].find((h) => h.value.length > MAX_HEADER_ACTION_VALUE);
  if (long)
    return unsupported(
      `${type} of ${long.name} has a value of ${long.value.length} characters; AFD header actions take values of at most ${MAX_HEADER_ACTION_VALUE}`,
    );
  return { ok: true, value: { type, ...edits } };
}

function unsupported(problem: string): Converted<ModelFilter> {
  return { ok: false, problem };
}

function convertRedirect(redirect: NonNullable<HTTPRouteFilter['requestRedirect']>): Converted<ModelFilter> {
  const { scheme, hostname, path, port, statusCode = 302 } = redirect;
  if (path?.type === 'ReplacePrefixMatch') {
    return unsupported('RequestRedirect with path ReplacePrefixMatch is not supported (AFD redirects replace the whole path)');
  }
  if (port !== undefined && !(scheme && WELL_KNOWN_PORT[scheme] === port)) {
    return unsupported(`RequestRedirect to port ${port} is not supported; only the well-known port of an explicit scheme`);
  }
  if (!REDIRECT_STATUS_CODES.includes(statusCode)) {
    return unsupported(`RequestRedirect statusCode ${statusCode} is not supported (AFD redirects have no ${statusCode}); expected 301, 302, 307 or 308`);
  }
  return {
    ok: true,
    value: {
      type: 'RequestRedirect',
      ...(scheme ? { scheme } : {}),
      ...(hostname ? { hostname } : {}),
      ...(path?.replaceFullPath !== undefined ? { path: path.replaceFullPath } : {}),
      statusCode: statusCode as RedirectStatusCode,
    },
  };
}

function convertRewrite(rewrite: NonNullable<HTTPRouteFilter['urlRewrite']>): Converted<ModelFilter> {
  if (rewrite.hostname) return unsupported('URLRewrite of the hostname is not supported (AFD sets the origin host header per backend)');
  if (!rewrite.path) return unsupported('URLRewrite without a path has nothing AFD can apply');
  const value = rewrite.path.type === 'ReplaceFullPath' ? rewrite.path.replaceFullPath : rewrite.path.replacePrefixMatch;
  return { ok: true, value: { type: 'URLRewrite', path: { type: rewrite.path.type, value: value ?? '' } } };
}

/** Converts a rule-level filter to what AFD's rules engine can do, or says why it cannot. */
export function convertFilter(filter: HTTPRouteFilter): Converted<ModelFilter> {
  switch (filter.type) {
    case 'RequestHeaderModifier':
      return convertHeaderEdits(filter.type, filter.requestHeaderModifier ?? {});
    case 'ResponseHeaderModifier':
      return convertHeaderEdits(filter.type, filter.responseHeaderModifier ?? {});
    case 'RequestRedirect':
      return convertRedirect(filter.requestRedirect ?? {});
    case 'URLRewrite':
      return convertRewrite(filter.urlRewrite ?? {});
    case 'CORS':
      return convertCors(filter.cors ?? {});
    case 'RequestMirror':
      return unsupported(`filter RequestMirror is not supported (AFD sends each request to one origin and cannot copy it to another); ${SUPPORTED_FILTERS}`);
    default:
      return unsupported(`filter ${filter.type} is not supported; ${SUPPORTED_FILTERS}`);
  }
}
