import { formatAnnotationErrors, parseHTTPRouteAnnotations } from '@fleet-gateway/annotations';
import type { Gateway, HTTPRoute } from '@fleet-gateway/api-types';
import { attachParentRef, targetsGateway, type ParentAttachment } from './attachment.js';
import type { BackendRefResolver } from './backend-refs.js';
import type { InputIndex } from './input-index.js';
import type { ListenerResult } from './listeners.js';
import type { ModelRule, RuleBackend, WithdrawalReason } from './model-types.js';
import { namespacedName } from './names.js';
import { convertRules, type ConvertedRule } from './route-rules.js';
import type { trafficSplits } from './traffic-split.js';
import type { ParentRefAsWritten } from './verdict-types.js';

export interface RefProblem {
  readonly reason: string;
  readonly message: string;
}

/** Everything resolve learned about one route, before precedence across routes is known. */
export interface RouteResolution {
  readonly route: HTTPRoute;
  readonly key: string;
  readonly parents: readonly { readonly ref: ParentRefAsWritten; readonly attachment: ParentAttachment }[];
  readonly annotationProblem?: string;
  readonly rules: readonly ConvertedRule[];
  readonly keptRules: readonly ModelRule[];
  readonly refProblems: readonly RefProblem[];
  readonly notes: readonly string[];
}

export interface RouteContext {
  readonly gateway: Gateway;
  readonly listeners: readonly ListenerResult[];
  readonly index: InputIndex;
  readonly refs: BackendRefResolver;
  readonly splits: ReturnType<typeof trafficSplits>;
  /** Undefined when the Gateway's timeout annotation is invalid: rule timeouts are then checked for range only. */
  readonly profileTimeoutSeconds: number | undefined;
}

function mergeByBackend(refs: readonly RuleBackend[]): RuleBackend[] {
  const merged = new Map<string, number>();
  for (const r of refs) merged.set(r.backend, (merged.get(r.backend) ?? 0) + r.weight);
  return [...merged].map(([backend, weight]) => ({ backend, weight }));
}

function resolveRuleRefs(route: HTTPRoute, rule: ConvertedRule, ctx: RouteContext, problems: RefProblem[], notes: Set<string>): RuleBackend[] {
  const ok: RuleBackend[] = [];
  for (const ref of rule.rule.backendRefs ?? []) {
    const resolution = ctx.refs.resolve(route, ref);
    if (!resolution.ok) {
      problems.push({ reason: resolution.reason, message: `rule ${rule.index}: ${resolution.message}` });
      continue;
    }
    ok.push({ backend: resolution.key, weight: resolution.weight });
    for (const note of resolution.notes) notes.add(note);
  }
  return mergeByBackend(ok);
}

/** Where a rule's traffic goes: a shared split, or the reason it must answer with an error. */
function ruleTraffic(rule: ConvertedRule, refs: readonly RuleBackend[], ctx: RouteContext): { split?: string; withdrawn?: WithdrawalReason } {
  if (rule.filters.some((f) => f.type === 'RequestRedirect')) return {};
  if ((rule.rule.backendRefs ?? []).length === 0) return { withdrawn: 'NoBackends' };
  if (refs.length === 0) return { withdrawn: 'NoValidBackends' };
  const split = ctx.splits.splitFor(refs);
  return split.backends.every((b) => b.weight === 0) ? { split: split.key, withdrawn: 'AllBackendWeightsZero' } : { split: split.key };
}

function keptRule(route: HTTPRoute, rule: ConvertedRule, refs: RuleBackend[], ctx: RouteContext): ModelRule {
  return {
    index: rule.index,
    matches: rule.matches,
    filters: rule.filters,
    backends: refs,
    ...ruleTraffic(rule, refs, ctx),
    source: { kind: 'HTTPRoute', namespace: route.metadata.namespace ?? '', name: route.metadata.name ?? '', section: `rule/${rule.index}` },
  };
}

/** Attaches a route to the Gateway's listeners and resolves its rules and references; undefined if not a child. */
export function resolveRoute(route: HTTPRoute, ctx: RouteContext): RouteResolution | undefined {
  const refs = (route.spec.parentRefs ?? []).filter((ref) => targetsGateway(route, ref, ctx.gateway));
  if (refs.length === 0) return undefined;
  const annotations = parseHTTPRouteAnnotations(route.metadata.annotations);
  const rules = convertRules(route, ctx.profileTimeoutSeconds);
  const refProblems: RefProblem[] = [];
  const notes = new Set<string>();
  const ruleRefs = rules.map((rule) => resolveRuleRefs(route, rule, ctx, refProblems, notes));
  const keptRules = rules.filter((r) => r.problems.length === 0).map((r) => keptRule(route, r, ruleRefs[r.index] ?? [], ctx));
  for (const rule of keptRules) {
    if (rule.withdrawn) notes.add(`rule ${rule.index} is withdrawn (${rule.withdrawn}): its requests get an error, never another rule's backend`);
  }
  return {
    route,
    key: namespacedName(route.metadata.namespace ?? '', route.metadata.name ?? ''),
    parents: refs.map((ref) => ({ ref, attachment: attachParentRef(route, ref, ctx.gateway, ctx.listeners, ctx.index) })),
    ...(annotations.ok ? {} : { annotationProblem: formatAnnotationErrors(annotations.errors) }),
    rules,
    keptRules,
    refProblems,
    notes: [...notes],
  };
}
