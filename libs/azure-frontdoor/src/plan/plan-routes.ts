import { type HostRouting, type PathKey, type RoutingCandidate, type SourceRef } from '@fleet-gateway/model';
import { routeName, ruleSetName } from './afd-names.js';
import { candidateFilters, ruleSource } from './model-lookup.js';
import { planPathRewrite, type PathRewrite } from './path-rewrite.js';
import { customDomainOf } from './plan-custom-domains.js';
import { ruleKey, type PlannedGroup } from './plan-origin-groups.js';
import { planRuleSet, type RuleSetContext } from './plan-rule-set.js';
import type { PlanProblem } from './plan-types.js';
import { patternFor } from './route-patterns.js';
import { isUnconditional } from './rule-translation.js';
import type { EndpointProtocol, HeldPattern, RouteSpec, RuleSetSpec, RuleSpec } from './spec-types.js';
import { canonicalJson, compareText } from './canonical.js';

export interface RoutePlan {
  readonly routes: readonly RouteSpec[];
  readonly ruleSets: readonly RuleSetSpec[];
  readonly rules: readonly RuleSpec[];
  readonly held: readonly HeldPattern[];
  readonly problems: readonly PlanProblem[];
}

export interface RouteContext extends RuleSetContext {
  readonly endpoint: string;
  readonly problemOfRule: ReadonlyMap<string, PlanProblem>;
  /** AFD's rules per rule set (and per route: each route uses one rule set), as lowered by the capacity overrides. */
  readonly rulesPerRuleSet: number;
}

/** The candidates that decide a path: conditional ones in precedence order, then the first unconditional one. */
interface Sequence {
  readonly signature: string;
  readonly candidates: readonly RoutingCandidate[];
}

/** A path is either decided (its sequence) or held as AFD has it, because a rule deciding it is in error. */
type Decision = { readonly sequence: Sequence } | { readonly held: string; readonly sources: readonly SourceRef[] };

const PROTOCOLS: Readonly<Record<HostRouting['protocol'], EndpointProtocol>> = { HTTP: 'Http', HTTPS: 'Https' };

class ProblemSink {
  private readonly byKey = new Map<string, PlanProblem>();

  add(code: PlanProblem['code'], source: SourceRef, message: string): PlanProblem {
    const key = `${code}|${canonicalJson(source)}`;
    const problem = this.byKey.get(key) ?? {
      code,
      source,
      message: `${source.namespace}/${source.name} ${source.section ?? ''}: ${message}`,
      blocksWrites: false,
    };
    this.byKey.set(key, problem);
    return problem;
  }

  list(): PlanProblem[] {
    return [...this.byKey.values()];
  }
}

/**
 * The sequence that decides a path. A rule in error anywhere in it (its origin group cannot be planned, no
 * unconditional match ends it) holds the path: leaving that rule out would send its requests
 * to the next candidate, i.e. to another backend, which is a change no one asked for.
 */
function decidePath(context: RouteContext, path: PathKey, candidates: readonly RoutingCandidate[], sink: ProblemSink): Decision {
  const fallback = candidates.findIndex(isUnconditional);
  const pattern = patternFor(path);
  if (fallback === -1) {
    const problems = candidates.map((c) =>
      sink.add(
        'NoUnconditionalFallback',
        ruleSource(context.model, c),
        `requests to ${pattern} that meet none of the method/header/query conditions would need a 404, which an AFD route cannot give; add a match without conditions for this path`,
      ),
    );
    return { held: problems.map((p) => p.message).join('; '), sources: problems.flatMap((p) => (p.source ? [p.source] : [])) };
  }
  const sequence = candidates.slice(0, fallback + 1);
  const rejected = sequence.filter((c) => !context.groupOfRule.has(ruleKey(c)));
  if (rejected.length > 0) {
    const causes = rejected.map((c) => context.problemOfRule.get(ruleKey(c))?.message ?? `${c.route} rule ${c.rule} is missing from the model`);
    return { held: causes.join('; '), sources: rejected.map((c) => ruleSource(context.model, c)) };
  }
  return { sequence: { signature: canonicalJson(sequence), candidates: sequence } };
}

interface RouteDraft {
  /** The custom domain the route serves; undefined: the endpoint's default domain. */
  readonly customDomain: string | undefined;
  readonly sequence: Sequence;
  /** What names the draft's route and rule set: the sequence, and the path rewrite when there is one. */
  readonly identity: string;
  readonly pathRewrite: PathRewrite | undefined;
  readonly patterns: Map<string, Set<EndpointProtocol>>;
}

/** The order of held patterns: domain, pattern, protocol. */
export function compareHeld(a: HeldPattern, b: HeldPattern): number {
  return compareText(a.customDomain ?? '', b.customDomain ?? '') || compareText(a.pattern, b.pattern) || compareText(a.protocol, b.protocol);
}

/**
 * A decision whose rule set AFD would refuse (more rules than a rule set, or a route, may hold) keeps its patterns as
 * AFD serves them now, like a rule in error: the rules past the limit, the least precedent, are the ones named.
 */
function holdOversizedRuleSet(context: RouteContext, draft: RouteDraft, rules: readonly RuleSpec[], sink: ProblemSink): HeldPattern[] {
  const past = [
    ...new Map(
      rules
        .slice(context.rulesPerRuleSet)
        .flatMap((r) => r.provenance)
        .map((s) => [canonicalJson(s), s]),
    ).values(),
  ];
  const patterns = [...draft.patterns.keys()].sort(compareText).join(', ');
  const problems = past.map((source) =>
    sink.add(
      'TooManyRules',
      source,
      `the matches deciding ${patterns} would need ${rules.length} AFD rules in one rule set; AFD allows ${context.rulesPerRuleSet}, so these paths keep what AFD serves now`,
    ),
  );
  const cause = problems.map((p) => p.message).join('; ');
  return [...draft.patterns].flatMap(([pattern, protocols]) =>
    [...protocols].map((protocol) => ({ ...(draft.customDomain ? { customDomain: draft.customDomain } : {}), pattern, protocol, cause, provenance: past })),
  );
}

/**
 * AFD routes, per domain: the endpoint's default domain for `*`, one custom domain per other hostname (whose routing
 * already holds the candidates it inherits from `*`). The path keys of one domain that share one decision (same
 * candidates in the same order) and the same protocols become one route; the decision's conditional candidates
 * become a rule set, shared by every domain that decides the same way.
 */
export function planRoutes(context: RouteContext): RoutePlan {
  const sink = new ProblemSink();
  const drafts = new Map<string, RouteDraft>();
  const held: HeldPattern[] = [];
  for (const host of context.model.routing) {
    const customDomain = customDomainOf(host.hostname);
    for (const path of host.paths) {
      const decision = decidePath(context, path.path, path.candidates, sink);
      const pattern = patternFor(path.path);
      if ('held' in decision) {
        held.push({
          ...(customDomain ? { customDomain } : {}),
          pattern,
          protocol: PROTOCOLS[host.protocol],
          cause: decision.held,
          provenance: decision.sources,
        });
        continue;
      }
      const { sequence } = decision;
      const pathRewrite = planPathRewrite(
        path.path,
        sequence.candidates.map((c) => candidateFilters(context.model, c)),
      );
      const identity = pathRewrite ? `${sequence.signature}|${canonicalJson(pathRewrite)}` : sequence.signature;
      const key = `${customDomain ?? ''}|${identity}`;
      const draft = drafts.get(key) ?? { customDomain, sequence, identity, pathRewrite, patterns: new Map() };
      draft.patterns.set(pattern, (draft.patterns.get(pattern) ?? new Set()).add(PROTOCOLS[host.protocol]));
      drafts.set(key, draft);
    }
  }
  const routes: RouteSpec[] = [];
  const ruleSets = new Map<string, RuleSetSpec>();
  const rules = new Map<string, RuleSpec>();
  for (const draft of drafts.values()) {
    const byProtocols = new Map<string, string[]>();
    for (const [pattern, protocols] of draft.patterns) {
      const key = [...protocols].sort().join(',');
      byProtocols.set(key, [...(byProtocols.get(key) ?? []), pattern]);
    }
    const ruleSet = planRuleSet(context, draft.sequence.candidates, ruleSetName(draft.identity), draft.pathRewrite);
    if (ruleSet && ruleSet.rules.length > context.rulesPerRuleSet) {
      held.push(...holdOversizedRuleSet(context, draft, ruleSet.rules, sink));
      continue;
    }
    if (ruleSet) {
      ruleSets.set(ruleSet.ruleSet.ref.ruleSet, ruleSet.ruleSet);
      for (const rule of ruleSet.rules) rules.set(`${rule.ref.ruleSet}/${rule.ref.rule}`, rule);
    }
    const fallback = draft.sequence.candidates[draft.sequence.candidates.length - 1] as RoutingCandidate;
    const group = context.groupOfRule.get(ruleKey(fallback)) as PlannedGroup;
    const provenance = draft.sequence.candidates.map((c) => ruleSource(context.model, c));
    for (const [protocols, patterns] of byProtocols) {
      const readable = `${fallback.route.split('/')[1] ?? ''}-${fallback.rule}`;
      // The default domain's routes keep the names they had before custom domains existed.
      const identity = `${draft.customDomain === undefined ? '' : `${draft.customDomain}|`}${draft.identity}|${protocols}`;
      routes.push({
        ref: { kind: 'route', profile: context.profile, endpoint: context.endpoint, route: routeName(readable, identity) },
        customDomains: draft.customDomain === undefined ? [] : [draft.customDomain],
        originGroup: group.name,
        patterns: patterns.sort(compareText),
        supportedProtocols: protocols.split(',') as EndpointProtocol[],
        forwardingProtocol: group.forwardingProtocol,
        ...(draft.pathRewrite ? { originPath: draft.pathRewrite.originPath } : {}),
        ruleSets: ruleSet ? [ruleSet.ruleSet.ref.ruleSet] : [],
        withdrawn: group.withdrawn,
        provenance,
      });
    }
  }
  return {
    routes: routes.sort((a, b) => compareText(a.ref.route, b.ref.route)),
    ruleSets: [...ruleSets.values()].sort((a, b) => compareText(a.ref.ruleSet, b.ref.ruleSet)),
    rules: [...rules.values()].sort((a, b) => compareText(a.ref.ruleSet, b.ref.ruleSet) || a.order - b.order),
    held: held.sort(compareHeld),
    problems: sink.list(),
  };
}
