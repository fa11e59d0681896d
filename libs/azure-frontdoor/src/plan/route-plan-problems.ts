import { compareText } from './canonical.js';
import type { PlanProblem } from './plan-types.js';

/** What the plan could not program of one HTTPRoute: its problems, and one message for a route condition. */
export interface RoutePlanProblems {
  readonly namespace: string;
  readonly name: string;
  readonly problems: readonly PlanProblem[];
  /** Each problem's message once (they name the route and rule), in rule order. */
  readonly message: string;
}

/**
 * The plan's problems grouped by the HTTPRoute they are about (`source`), so that each route's status can say what
 * of it AFD does not serve while every other route is programmed. Problems about no route (graph-level) are left out:
 * they belong to the Gateway's Programmed condition.
 */
export function planProblemsByRoute(problems: readonly PlanProblem[]): RoutePlanProblems[] {
  const byRoute = new Map<string, PlanProblem[]>();
  for (const problem of problems) {
    if (problem.source?.kind !== 'HTTPRoute') continue;
    const key = `${problem.source.namespace}/${problem.source.name}`;
    const list = byRoute.get(key) ?? [];
    if (!list.some((p) => p.message === problem.message)) list.push(problem);
    byRoute.set(key, list);
  }
  const ruleIndex = (p: PlanProblem) => Number(/^rule\/(\d+)$/.exec(p.source?.section ?? '')?.[1] ?? -1);
  return [...byRoute.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([, list]) => {
      const sorted = [...list].sort((a, b) => ruleIndex(a) - ruleIndex(b) || compareText(a.message, b.message));
      const first = sorted[0]?.source;
      return { namespace: first?.namespace ?? '', name: first?.name ?? '', problems: sorted, message: sorted.map((p) => p.message).join('; ') };
    });
}
