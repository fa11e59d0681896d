import { describe, expect, it } from 'vitest';
import { compositeRouteMetric, findRouteConflict, patternProblem, routeShape } from './route-rules.js';

describe('route rules', () => {
  it('accepts * only as the last character after a /', () => {
    expect(patternProblem('/*')).toBeUndefined();
    expect(patternProblem('/api/*')).toBeUndefined();
    expect(patternProblem('/exact')).toBeUndefined();
    expect(patternProblem('api/*')).toBe('must start with /');
    expect(patternProblem('/api*')).toMatch(/only as the last character/);
    expect(patternProblem('/*/x')).toMatch(/only as the last character/);
  });

  it('finds a conflict only when domain, pattern and protocol all overlap', () => {
    const one = routeShape('one', { linkToDefaultDomain: 'Enabled', patternsToMatch: ['/a/*'], supportedProtocols: ['Https'] }, 'endpoint');
    const other = routeShape('other', { linkToDefaultDomain: 'Enabled', patternsToMatch: ['/A/*'], supportedProtocols: ['Http', 'Https'] }, 'endpoint');
    const httpOnly = routeShape('http', { linkToDefaultDomain: 'Enabled', patternsToMatch: ['/a/*'], supportedProtocols: ['Http'] }, 'endpoint');
    const otherDomain = routeShape('custom', { customDomains: [{ id: '/X/Domain' }], patternsToMatch: ['/a/*'] }, 'endpoint');
    expect(findRouteConflict(other, [one])).toEqual({ other: 'one', otherEndpoint: 'endpoint', domain: 'endpoint', pattern: '/a/*', protocol: 'Https' });
    expect(findRouteConflict(httpOnly, [one])).toBeUndefined();
    expect(findRouteConflict(otherDomain, [one])).toBeUndefined();
    expect(findRouteConflict(one, [routeShape('ONE', {}, 'endpoint')])).toBeUndefined();
    // A custom domain is one domain across the profile: routes of two endpoints meet on it.
    const shared = { customDomains: [{ id: '/X/Domain' }], patternsToMatch: ['/a/*'] };
    expect(findRouteConflict(routeShape('one', shared, 'endpoint-2'), [routeShape('one', shared, 'endpoint')])).toMatchObject({
      otherEndpoint: 'endpoint',
      domain: '/x/domain',
    });
  });

  it('computes the composite metric as domains × paths per protocol', () => {
    const route = routeShape(
      'r',
      { linkToDefaultDomain: 'Enabled', customDomains: [{ id: 'd1' }, { id: 'd2' }], patternsToMatch: ['/a', '/b'], supportedProtocols: ['Http', 'Https'] },
      'e',
    );
    expect(compositeRouteMetric([route, route])).toBe(2 * (3 * 2 * 2));
  });
});
