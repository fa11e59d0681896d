/**
 * AFD rule match conditions (https://learn.microsoft.com/azure/frontdoor/rules-match-conditions), compiled once per
 * routing table into predicates over a request. Comparisons are case-sensitive unless a transform says otherwise (the
 * page's query-string example: "We want the match condition to be case-sensitive, so we don't transform the case");
 * several match values are ORed; LessThan…GreaterThanOrEqual compare the value's length.
 */
export interface RuleRequest {
  method: string;
  scheme: 'Http' | 'Https';
  /** Lower-cased, without port. */
  host: string;
  /** As received, with its leading `/`. */
  path: string;
  /** Without the leading `?`; empty when there is none. */
  query: string;
  /** Node's lower-cased header map. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export type ConditionPredicate = (request: RuleRequest) => boolean;

type Transform = (value: string) => string;

const TRANSFORMS: Readonly<Record<string, Transform>> = {
  Lowercase: (value) => value.toLowerCase(),
  Uppercase: (value) => value.toUpperCase(),
  Trim: (value) => value.trim(),
  RemoveNulls: (value) => value.replaceAll('\0', ''),
  UrlEncode: (value) => encodeURIComponent(value),
  UrlDecode: (value) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  },
};

type Matcher = (value: string) => boolean;

/** One operator over one match value; `undefined` for an operator this condition type does not take. */
function operatorMatcher(operator: string, matchValue: string): Matcher | undefined {
  const length = Number(matchValue);
  switch (operator) {
    case 'Equal':
      return (value) => value === matchValue;
    case 'Contains':
      return (value) => value.includes(matchValue);
    case 'BeginsWith':
      return (value) => value.startsWith(matchValue);
    case 'EndsWith':
      return (value) => value.endsWith(matchValue);
    case 'LessThan':
      return (value) => value.length < length;
    case 'LessThanOrEqual':
      return (value) => value.length <= length;
    case 'GreaterThan':
      return (value) => value.length > length;
    case 'GreaterThanOrEqual':
      return (value) => value.length >= length;
    case 'RegEx': {
      const pattern = new RegExp(matchValue);
      return (value) => pattern.test(value);
    }
    case 'Wildcard': {
      const pattern = new RegExp(`^${matchValue.split('*').map(escapeRegex).join('.*')}$`);
      return (value) => pattern.test(value);
    }
    default:
      return undefined;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a condition type reads from the request; `undefined` means the request has no such value (an absent header). */
type Extractor = (request: RuleRequest, selector: string) => string | undefined;

function headerValue(request: RuleRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The leading `/` is not part of UrlPath's value (the page's example matches `files/secure/`; MicrosoftDocs/azure-docs
 * #63796, #71088); a match value's own leading `/` is ignored (the page's earlier wording, and #109767: `Equal "/"`
 * matched the root), assumption A61.
 */
const withoutLeadingSlash = (text: string): string => (text.startsWith('/') ? text.slice(1) : text);

const EXTRACTORS: Readonly<Record<string, { read: Extractor; matchValue?: (value: string) => string }>> = {
  RequestHeader: { read: headerValue },
  QueryString: { read: (request) => request.query },
  RequestMethod: { read: (request) => request.method },
  UrlPath: { read: (request) => withoutLeadingSlash(request.path), matchValue: withoutLeadingSlash },
  RequestUri: { read: (request) => `${request.scheme.toLowerCase()}://${request.host}${request.path}${request.query === '' ? '' : `?${request.query}`}` },
  HostName: { read: (request) => request.host },
  RequestScheme: { read: (request) => request.scheme.toUpperCase() },
};

export interface ConditionBody {
  name?: unknown;
  parameters?: {
    operator?: unknown;
    selector?: unknown;
    negateCondition?: unknown;
    matchValues?: unknown;
    transforms?: unknown;
  };
}

/** Compiles one ARM condition (the schema has already checked its shape); a type the edge does not read never matches. */
export function compileCondition(condition: ConditionBody): ConditionPredicate {
  const extractor = EXTRACTORS[String(condition.name)];
  if (extractor === undefined) return () => false;
  const parameters = condition.parameters ?? {};
  const operator = String(parameters.operator);
  const selector = typeof parameters.selector === 'string' ? parameters.selector : '';
  const negate = parameters.negateCondition === true;
  const transforms = ((parameters.transforms as string[] | undefined) ?? []).flatMap((name) => TRANSFORMS[name] ?? []);
  const values = ((parameters.matchValues as string[] | undefined) ?? []).map((value) =>
    operator === 'RegEx' ? value : (extractor.matchValue?.(value) ?? value),
  );
  const matchers = operator === 'Any' ? [] : values.flatMap((value) => operatorMatcher(operator, value) ?? []);
  const matches = (value: string | undefined): boolean => {
    if (operator === 'Any') return value !== undefined && value !== '';
    if (value === undefined) return false;
    const transformed = transforms.reduce((current, transform) => transform(current), value);
    return matchers.some((matcher) => matcher(transformed));
  };
  return (request) => matches(extractor.read(request, selector)) !== negate;
}

/** Why a condition's match values cannot be evaluated (a RegEx that does not compile), or undefined. */
export function conditionProblem(condition: ConditionBody): string | undefined {
  const parameters = condition.parameters ?? {};
  if (parameters.operator !== 'RegEx') return undefined;
  for (const value of (parameters.matchValues as string[] | undefined) ?? []) {
    try {
      new RegExp(value);
    } catch {
      return `matchValues holds '${value}', which is not a valid regular expression`;
    }
  }
  return undefined;
}
