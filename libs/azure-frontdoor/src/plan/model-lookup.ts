import type { GlobalGateway, ModelFilter, ModelMatch, ModelRoute, ModelRule, RoutingCandidate, SourceRef } from '@fleet-gateway/model';

/** The model rule a routing candidate names (`namespace/name` + rule index). */
export function findRule(model: GlobalGateway, candidate: Pick<RoutingCandidate, 'route' | 'rule'>): { route: ModelRoute; rule: ModelRule } | undefined {
  const route = model.routes.find((r) => `${r.namespace}/${r.name}` === candidate.route);
  const rule = route?.rules.find((r) => r.index === candidate.rule);
  return route && rule ? { route, rule } : undefined;
}

/** Where a candidate's rule comes from, even when the model lacks the rule (it then says which one it names). */
export function ruleSource(model: GlobalGateway, candidate: Pick<RoutingCandidate, 'route' | 'rule'>): SourceRef {
  const [namespace = '', name = ''] = candidate.route.split('/');
  return findRule(model, candidate)?.rule.source ?? { kind: 'HTTPRoute', namespace, name, section: `rule/${candidate.rule}` };
}

const ROOT_PATH: ModelMatch = { path: { type: 'PathPrefix', value: '/' }, headers: [], queryParams: [] };

/** The filters of a candidate's rule and the match it came from (a rule missing from the model: none, on `/`). */
export function candidateFilters(model: GlobalGateway, candidate: RoutingCandidate): { filters: readonly ModelFilter[]; match: ModelMatch } {
  const found = findRule(model, candidate);
  return { filters: found?.rule.filters ?? [], match: found?.rule.matches[candidate.match] ?? ROOT_PATH };
}
