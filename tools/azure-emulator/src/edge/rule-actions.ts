import { resourceKey } from '../arm/resource-id.js';

/**
 * AFD rule set actions (https://learn.microsoft.com/azure/frontdoor/front-door-rules-engine-actions) as the edge
 * applies them. Actions the edge does not model (caching, cache keys) compile to nothing.
 */
export type ForwardingProtocol = 'HttpOnly' | 'HttpsOnly' | 'MatchRequest';

export interface HeaderEdit {
  action: 'Append' | 'Overwrite' | 'Delete';
  /** Lower-cased. */
  name: string;
  value: string;
}

export type RuleActionEntry =
  | { kind: 'override'; originGroupKey?: string; forwardingProtocol?: ForwardingProtocol }
  | { kind: 'redirect'; status: number; protocol: 'MatchRequest' | 'Http' | 'Https'; host?: string; path?: string; query?: string; fragment?: string }
  | { kind: 'rewrite'; sourcePattern: string; destination: string; preserveUnmatchedPath: boolean }
  | { kind: 'requestHeader' | 'responseHeader'; edit: HeaderEdit };

const REDIRECT_STATUS: Readonly<Record<string, number>> = { Moved: 301, Found: 302, TemporaryRedirect: 307, PermanentRedirect: 308 };

interface ActionBody {
  name?: unknown;
  parameters?: Record<string, unknown>;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Compiles one ARM action; the schema has already checked its shape. */
export function compileAction(action: ActionBody): RuleActionEntry[] {
  const parameters = action.parameters ?? {};
  switch (action.name) {
    case 'RouteConfigurationOverride': {
      const override = parameters.originGroupOverride as { originGroup?: { id?: unknown }; forwardingProtocol?: ForwardingProtocol } | undefined;
      const id = text(override?.originGroup?.id);
      return [
        {
          kind: 'override',
          ...(id === undefined ? {} : { originGroupKey: resourceKey(id) }),
          ...(override?.forwardingProtocol === undefined ? {} : { forwardingProtocol: override.forwardingProtocol }),
        },
      ];
    }
    case 'UrlRedirect': {
      const optional = {
        host: text(parameters.customHostname),
        path: text(parameters.customPath),
        query: text(parameters.customQueryString),
        fragment: text(parameters.customFragment),
      };
      return [
        {
          kind: 'redirect',
          status: REDIRECT_STATUS[String(parameters.redirectType)] ?? 302,
          protocol: (text(parameters.destinationProtocol) ?? 'MatchRequest') as 'MatchRequest' | 'Http' | 'Https',
          ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
        },
      ];
    }
    case 'UrlRewrite':
      return [
        {
          kind: 'rewrite',
          sourcePattern: typeof parameters.sourcePattern === 'string' ? parameters.sourcePattern : '',
          destination: String(parameters.destination ?? ''),
          // afdx.json: "Whether to preserve unmatched path. Default value is true."
          preserveUnmatchedPath: parameters.preserveUnmatchedPath !== false,
        },
      ];
    case 'ModifyRequestHeader':
    case 'ModifyResponseHeader':
      return [
        {
          kind: action.name === 'ModifyRequestHeader' ? 'requestHeader' : 'responseHeader',
          edit: {
            action: parameters.headerAction as HeaderEdit['action'],
            name: String(parameters.headerName).toLowerCase(),
            value: typeof parameters.value === 'string' ? parameters.value : '',
          },
        },
      ];
    default:
      return [];
  }
}

type HeaderMap = Record<string, string | string[] | number | undefined>;

/**
 * Applies header edits in order. Append concatenates to a present value without a delimiter ("using string
 * concatenation. No delimiters are added", rules actions page); several values of one header count as their
 * comma-joined text.
 */
export function applyHeaderEdits(headers: HeaderMap, edits: readonly HeaderEdit[]): void {
  for (const edit of edits) {
    if (edit.action === 'Delete') {
      delete headers[edit.name];
      continue;
    }
    const present = headers[edit.name];
    const existing = present === undefined ? undefined : Array.isArray(present) ? present.join(', ') : String(present);
    headers[edit.name] = edit.action === 'Append' && existing !== undefined ? `${existing}${edit.value}` : edit.value;
  }
}

/**
 * UrlRewrite on the part of the path after the route's matched pattern (`/shop/*` → what follows `/shop`; `/*` and
 * exact patterns → the whole path), as the URL rewrite page documents ("only the path after the patterns to match in
 * the route configuration is considered"; MicrosoftDocs/azure-docs#78968, #75589): the source pattern is a prefix,
 * compared case-insensitively; the destination replaces it, followed by the rest when preserveUnmatchedPath, joined
 * as they are (A60).
 */
export function rewritePath(path: string, routePrefixLength: number, rewrite: Extract<RuleActionEntry, { kind: 'rewrite' }>): string | undefined {
  const kept = path.slice(0, routePrefixLength);
  const considered = path.slice(routePrefixLength);
  if (!considered.toLowerCase().startsWith(rewrite.sourcePattern.toLowerCase())) return undefined;
  const unmatched = rewrite.preserveUnmatchedPath ? considered.slice(rewrite.sourcePattern.length) : '';
  return `${kept}${rewrite.destination}${unmatched}`;
}

/**
 * The Location of a redirect: each part the action leaves blank is the request's (path and query as received); the
 * query replaces the whole incoming one. A fragment never reaches the edge, so only `customFragment` gives one.
 */
export function redirectLocation(
  redirect: Extract<RuleActionEntry, { kind: 'redirect' }>,
  request: { scheme: 'Http' | 'Https'; host: string; path: string; query: string },
): string {
  const scheme = redirect.protocol === 'MatchRequest' ? request.scheme : redirect.protocol;
  const query = redirect.query ?? request.query;
  return (
    `${scheme.toLowerCase()}://${redirect.host ?? request.host}${redirect.path ?? request.path}` +
    `${query === '' ? '' : `?${query}`}${redirect.fragment === undefined ? '' : `#${redirect.fragment}`}`
  );
}
