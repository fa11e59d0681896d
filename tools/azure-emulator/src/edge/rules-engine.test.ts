import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHeaderEdits, rewritePath } from './rule-actions.js';
import { compileCondition, type RuleRequest } from './rule-conditions.js';
import { compileRuleSet, evaluateRules, type RuleBody } from './rules-engine.js';

const request = (overrides: Partial<RuleRequest> = {}): RuleRequest => ({
  method: 'GET',
  scheme: 'Http',
  host: 'web-abc.z01.azurefd.net',
  path: '/shop/cart',
  query: 'id=1&debug=1',
  headers: { 'x-version': 'v2', 'user-agent': 'Mozilla/5.0' },
  ...overrides,
});

const condition = (name: string, parameters: Record<string, unknown>) => compileCondition({ name, parameters });

const GROUP = '/subscriptions/s/resourcegroups/rg/providers/microsoft.cdn/profiles/fd/origingroups/';
const override = (group: string) => ({
  name: 'RouteConfigurationOverride',
  parameters: { originGroupOverride: { originGroup: { id: `${GROUP}${group}` }, forwardingProtocol: 'HttpOnly' } },
});
const header = (name: string, value: string, operator = 'Equal') => ({ name: 'RequestHeader', parameters: { selector: name, operator, matchValues: [value] } });
const rules = (...bodies: RuleBody[]) => compileRuleSet(bodies.map((properties, i) => ({ name: `r${i + 1}`, properties: { order: i + 1, ...properties } })));

describe('match conditions', () => {
  it.each([
    ['RequestHeader', { selector: 'X-Version', operator: 'Equal', matchValues: ['v2'] }, true],
    ['RequestHeader', { selector: 'x-version', operator: 'Equal', matchValues: ['V2'] }, false],
    ['RequestHeader', { selector: 'x-version', operator: 'Equal', matchValues: ['V2'], transforms: ['Uppercase'] }, true],
    ['RequestHeader', { selector: 'user-agent', operator: 'Contains', matchValues: ['Chrome', 'Mozilla'] }, true],
    ['RequestHeader', { selector: 'x-missing', operator: 'Any' }, false],
    ['RequestHeader', { selector: 'x-missing', operator: 'Any', negateCondition: true }, true],
    ['RequestHeader', { selector: 'x-missing', operator: 'Equal', matchValues: ['v2'], negateCondition: true }, true],
    ['QueryString', { operator: 'RegEx', matchValues: ['(^|&)debug=1(&|$)'] }, true],
    ['QueryString', { operator: 'BeginsWith', matchValues: ['debug'] }, false],
    ['QueryString', { operator: 'EndsWith', matchValues: ['debug=1'] }, true],
    ['RequestMethod', { operator: 'Equal', matchValues: ['POST'] }, false],
    ['RequestMethod', { operator: 'Equal', matchValues: ['GET', 'HEAD'] }, true],
    ['UrlPath', { operator: 'BeginsWith', matchValues: ['shop/'] }, true],
    ['UrlPath', { operator: 'BeginsWith', matchValues: ['/shop/'] }, true],
    ['UrlPath', { operator: 'Wildcard', matchValues: ['shop/*'] }, true],
    ['UrlPath', { operator: 'RegEx', matchValues: ['^shop/c'] }, true],
    ['UrlPath', { operator: 'GreaterThan', matchValues: ['20'] }, false],
    ['RequestUri', { operator: 'Equal', matchValues: ['http://web-abc.z01.azurefd.net/shop/cart?id=1&debug=1'] }, true],
    ['HostName', { operator: 'EndsWith', matchValues: ['.azurefd.net'] }, true],
    ['RequestScheme', { operator: 'Equal', matchValues: ['HTTPS'] }, false],
    ['RequestScheme', { operator: 'Equal', matchValues: ['HTTPS'], negateCondition: true }, true],
    ['RemoteAddress', { operator: 'IPMatch', matchValues: ['0.0.0.0/0'] }, false],
  ])('%s %j → %s', (name, parameters, expected) => {
    expect(condition(name, parameters)(request())).toBe(expected);
  });

  it('UrlPath "/" matches the root (the leading slash is ignored on both sides)', () => {
    expect(condition('UrlPath', { operator: 'Equal', matchValues: ['/'] })(request({ path: '/' }))).toBe(true);
    expect(condition('UrlPath', { operator: 'Equal', matchValues: ['/'] })(request({ path: '/a' }))).toBe(false);
  });

  it('transforms run in order before the comparison (Trim, UrlDecode, RemoveNulls, Lowercase)', () => {
    const decoded = condition('RequestHeader', {
      selector: 'x-t',
      operator: 'Equal',
      matchValues: ['a b'],
      transforms: ['Trim', 'UrlDecode', 'RemoveNulls', 'Lowercase'],
    });
    expect(decoded(request({ headers: { 'x-t': '  A%20\0B ' } }))).toBe(true);
    const encoded = condition('RequestHeader', { selector: 'x-t', operator: 'Equal', matchValues: ['a%20b'], transforms: ['UrlEncode'] });
    expect(encoded(request({ headers: { 'x-t': 'a b' } }))).toBe(true);
  });

  it('negateCondition inverts every operator (property)', () => {
    const operators = ['Equal', 'Contains', 'BeginsWith', 'EndsWith', 'Any', 'LessThan', 'GreaterThanOrEqual'];
    fc.assert(
      fc.property(
        fc.constantFrom(...operators),
        fc.string({ maxLength: 6 }),
        fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
        (operator, value, headerValue) => {
          const headers = headerValue === undefined ? {} : { 'x-p': headerValue };
          const plain = condition('RequestHeader', { selector: 'x-p', operator, matchValues: [value] })(request({ headers }));
          const negated = condition('RequestHeader', { selector: 'x-p', operator, matchValues: [value], negateCondition: true })(request({ headers }));
          return plain !== negated;
        },
      ),
    );
  });

  it('Equal, BeginsWith, EndsWith and Contains agree with the string they test (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), (before, middle, after) => {
        const headers = { 'x-p': `${before}${middle}${after}` };
        const holds = (operator: string, value: string) =>
          condition('RequestHeader', { selector: 'x-p', operator, matchValues: [value] })(request({ headers }));
        return holds('BeginsWith', before) && holds('EndsWith', after) && holds('Contains', middle) && holds('Equal', `${before}${middle}${after}`);
      }),
    );
  });
});

describe('rule evaluation', () => {
  it('a header match overrides the origin group; without the header the route keeps its own', () => {
    const set = rules({ conditions: [header('x-version', 'v2')], actions: [override('v2')], matchProcessingBehavior: 'Stop' });
    expect(evaluateRules(set, request(), 0)).toMatchObject({ matched: ['r1'], originGroupKey: `${GROUP}v2`, forwardingProtocol: 'HttpOnly' });
    expect(evaluateRules(set, request({ headers: {} }), 0).originGroupKey).toBeUndefined();
  });

  it('runs rules in order; Stop ends the evaluation, Continue lets later rules override', () => {
    const continued = rules({ conditions: [], actions: [override('first')] }, { conditions: [header('x-version', 'v2')], actions: [override('second')] });
    expect(evaluateRules(continued, request(), 0)).toMatchObject({ matched: ['r1', 'r2'], originGroupKey: `${GROUP}second` });
    const stopped = rules({ conditions: [], actions: [override('first')], matchProcessingBehavior: 'Stop' }, { actions: [override('second')] });
    expect(evaluateRules(stopped, request(), 0)).toMatchObject({ matched: ['r1'], originGroupKey: `${GROUP}first` });
    const reversed = compileRuleSet([
      { name: 'late', properties: { order: 2, actions: [override('late')] } },
      { name: 'early', properties: { order: 1, actions: [override('early')] } },
    ]);
    expect(evaluateRules(reversed, request(), 0)).toMatchObject({ matched: ['early', 'late'], originGroupKey: `${GROUP}late` });
  });

  it('all conditions of a rule must hold (AND); its match values are ORed', () => {
    const set = rules({
      conditions: [header('x-version', 'v2'), { name: 'RequestMethod', parameters: { operator: 'Equal', matchValues: ['PUT', 'POST'] } }],
      actions: [override('v2')],
    });
    expect(evaluateRules(set, request(), 0).matched).toEqual([]);
    expect(evaluateRules(set, request({ method: 'POST' }), 0).matched).toEqual(['r1']);
  });

  it('redirects with the status of its type and a Location keeping what the action leaves blank', () => {
    const redirect = (parameters: Record<string, unknown>) => evaluateRules(rules({ actions: [{ name: 'UrlRedirect', parameters }] }), request(), 0).redirect;
    expect(redirect({ redirectType: 'Moved', destinationProtocol: 'Https' })).toEqual({
      status: 301,
      location: 'https://web-abc.z01.azurefd.net/shop/cart?id=1&debug=1',
    });
    expect(redirect({ redirectType: 'Found', customHostname: 'new.example.com', customPath: '/new' })).toEqual({
      status: 302,
      location: 'http://new.example.com/new?id=1&debug=1',
    });
    expect(redirect({ redirectType: 'TemporaryRedirect', customQueryString: 'a=b', customFragment: 'top' })?.location).toBe(
      'http://web-abc.z01.azurefd.net/shop/cart?a=b#top',
    );
    expect(redirect({ redirectType: 'PermanentRedirect' })?.status).toBe(308);
  });

  it('rewrites only the path after the route pattern, chaining rewrites; conditions still see the incoming path', () => {
    const set = rules(
      { actions: [{ name: 'UrlRewrite', parameters: { sourcePattern: '/cart', destination: '/basket', preserveUnmatchedPath: true } }] },
      {
        conditions: [{ name: 'UrlPath', parameters: { operator: 'Equal', matchValues: ['shop/cart'] } }],
        actions: [{ name: 'UrlRewrite', parameters: { sourcePattern: '/basket', destination: '/b' } }],
      },
    );
    expect(evaluateRules(set, request(), '/shop'.length)).toMatchObject({ matched: ['r1', 'r2'], path: '/shop/b' });
  });

  it('collects header edits in order, request and response apart', () => {
    const edit = (name: string, headerAction: string, headerName: string, value?: string) => ({
      name,
      parameters: { headerAction, headerName, ...(value === undefined ? {} : { value }) },
    });
    const set = rules({
      actions: [
        edit('ModifyRequestHeader', 'Overwrite', 'X-Env', 'prod'),
        edit('ModifyResponseHeader', 'Delete', 'Server'),
        edit('ModifyRequestHeader', 'Append', 'x-via', 'afd'),
      ],
    });
    const decision = evaluateRules(set, request(), 0);
    expect(decision.requestHeaders).toEqual([
      { action: 'Overwrite', name: 'x-env', value: 'prod' },
      { action: 'Append', name: 'x-via', value: 'afd' },
    ]);
    expect(decision.responseHeaders).toEqual([{ action: 'Delete', name: 'server', value: '' }]);
  });
});

describe('actions', () => {
  it('header edits: Append concatenates without a delimiter, Overwrite replaces, Delete removes', () => {
    const headers: Record<string, string | string[] | undefined> = { 'x-a': 'one', 'x-b': ['1', '2'], 'x-c': 'gone' };
    applyHeaderEdits(headers, [
      { action: 'Append', name: 'x-a', value: 'two' },
      { action: 'Append', name: 'x-new', value: 'v' },
      { action: 'Overwrite', name: 'x-b', value: '3' },
      { action: 'Delete', name: 'x-c', value: '' },
    ]);
    expect(headers).toEqual({ 'x-a': 'onetwo', 'x-new': 'v', 'x-b': '3' });
  });

  it.each([
    ['/a', 0, '/a', '/b', true, '/b'],
    ['/a/x', 0, '/a', '/b', true, '/b/x'],
    ['/a/x', 0, '/a', '/b', false, '/b'],
    ['/A/x', 0, '/a', '/b', true, '/b/x'],
    ['/foo/1.jpg', 0, '/foo/', '/bar/', true, '/bar/1.jpg'],
    ['/x', 0, '/', '/v2/', true, '/v2/x'],
    ['/shop/a/x', 5, '/a', '/b', true, '/shop/b/x'],
    ['/shop/x', 5, '/shop', '/b', true, undefined],
  ])('rewritePath(%s, prefix %i, %s → %s, preserve %s) = %s', (path, prefix, sourcePattern, destination, preserveUnmatchedPath, expected) => {
    expect(rewritePath(path, prefix, { kind: 'rewrite', sourcePattern, destination, preserveUnmatchedPath })).toBe(expected);
  });

  it('a prefix rewrite keeps what follows the source pattern (property)', () => {
    const segment = fc.stringMatching(/^[a-z0-9]{1,6}$/);
    fc.assert(
      fc.property(segment, segment, fc.array(segment, { maxLength: 3 }), (source, destination, rest) => {
        const tail = rest.map((s) => `/${s}`).join('');
        return (
          rewritePath(`/${source}${tail}`, 0, { kind: 'rewrite', sourcePattern: `/${source}`, destination: `/${destination}`, preserveUnmatchedPath: true }) ===
          `/${destination}${tail}`
        );
      }),
    );
  });
});
