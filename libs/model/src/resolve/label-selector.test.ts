import { expect, it } from 'vitest';
import { selectorMatches } from './label-selector.js';

const labels = { team: 'web', tier: 'prod' };

it.each([
  [{}, true],
  [{ matchLabels: { team: 'web' } }, true],
  [{ matchLabels: { team: 'api' } }, false],
  [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['prod', 'staging'] }] }, true],
  [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['prod'] }] }, false],
  [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, true],
  [{ matchExpressions: [{ key: 'team', operator: 'Exists' }] }, true],
  [{ matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, false],
  [{ matchExpressions: [{ key: 'team', operator: 'Gt', values: ['1'] }] }, false],
])('selector %j matches {team: web, tier: prod}: %s', (selector, expected) => {
  expect(selectorMatches(selector, labels)).toBe(expected);
});
