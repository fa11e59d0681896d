import { describe, expect, it } from 'vitest';
import type { PlanProblem } from './plan-types.js';
import { planProblemsByRoute } from './route-plan-problems.js';

const problem = (name: string, rule: number, message: string, code: PlanProblem['code'] = 'NoUnconditionalFallback'): PlanProblem => ({
  code,
  message: `shop/${name} rule/${rule}: ${message}`,
  source: { kind: 'HTTPRoute', namespace: 'shop', name, section: `rule/${rule}` },
  blocksWrites: false,
});

describe('planProblemsByRoute', () => {
  it('groups rule problems by route, each once, in rule order; graph-level problems stay with the Gateway', () => {
    const graphLevel: PlanProblem = { code: 'DuplicateRoutePattern', message: 'routes r1 and r2 both match /a', blocksWrites: true };
    const grouped = planProblemsByRoute([
      problem('b', 10, 'ten'),
      graphLevel,
      problem('a', 1, 'one', 'MixedOriginConnectivity'),
      problem('b', 2, 'two'),
      problem('b', 10, 'ten'),
      { ...problem('x', 0, 'not a route'), source: { kind: 'ServiceImport', namespace: 'shop', name: 'x' } },
    ]);
    expect(grouped.map((g) => [g.namespace, g.name, g.problems.map((p) => p.source?.section), g.message])).toEqual([
      ['shop', 'a', ['rule/1'], 'shop/a rule/1: one'],
      ['shop', 'b', ['rule/2', 'rule/10'], 'shop/b rule/2: two; shop/b rule/10: ten'],
    ]);
  });

  it('no route problems, no entries', () => {
    expect(planProblemsByRoute([])).toEqual([]);
  });
});
