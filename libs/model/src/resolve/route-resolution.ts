import { formatAnnotationErrors, parseHTTPRouteAnnotations } from '@fleet-gateway/annotations';
import type { Gateway, HTTPRoute, ParentReference } from '@fleet-gateway/api-types';
import { attachParentRef, targetsGateway, targetsListenerSet, type ListenerParent, type ParentAttachment } from './attachment.js';
import type { ListenerSetResolution } from './listener-sets.js';
import type { BackendRefResolver } from './backend-refs.js';
import type { InputIndex } from './input-index.js';
import type { ListenerResult } from './listeners.js';
import { joinMessages } from '../verdicts/conditions.js';
import type { ModelRule, RuleBackend } from '../model/model-types.js';
import { withdrawnNote } from '../verdicts/withdrawn-notes.js';
import { namespacedName } from '../model/names.js';
import { convertRules, type ConvertedRule } from './route-rules.js';
import type { trafficSplits } from '../model/traffic-split.js';
import type { ParentRefAsWritten } from '../verdicts/verdict-types.js';
import { MAX_ROUTE_WEIGHT } from '../model/weights.js';

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
  /** The Gateway's own listeners. */
  readonly listeners: readonly ListenerResult[];
  /** The ListenerSets naming the Gateway, admitted or not. */
  readonly listenerSets: readonly ListenerSetResolution[];
  /** Every listener listener isolation is judged among: the Gateway's, and its admitted ListenerSets' valid ones. */
  readonly siblings: readonly ListenerResult[];
  readonly index: InputIndex;
  readonly refs: BackendRefResolver;
  readonly splits: ReturnType<typeof trafficSplits>;
  /** Undefined when the Gateway's timeout annotation is invalid: rule timeouts are then checked for range only. */
  readonly profileTimeoutSeconds: number | undefined;
}

/**
 * Refs to one backend become one entry with their summed weight. When a sum leaves the CRD's range, every entry of the
 * rule is scaled down by the same factor (a positive weight stays positive), so the split is still what the refs say.
 */
function mergeByBackend(refs: readonly RuleBackend[]): RuleBackend[] {
  const merged = new Map<string, number>();
  for (const r of refs) merged.set(r.backend, (merged.get(r.backend) ?? 0) + r.weight);
  const largest = Math.max(0, ...merged.values());
  const scale = largest > MAX_ROUTE_WEIGHT ? MAX_ROUTE_WEIGHT / largest : 1;
  return [...merged].map(([backend, weight]) => ({ backend, weight: scale === 1 || weight === 0 ? weight : Math.max(1, Math.round(weight * scale)) }));
}

/** The references of one rule: those that resolved, and what became of the others' traffic. */
interface RuleRefs {
  readonly backends: RuleBackend[];
  /** Set when a backend's configuration is in error: the rule keeps what was last programmed. */
  readonly held?: string;
}

/**
 * AFD cannot answer a share of a rule's traffic with an error, as the spec asks for an invalid backendRef: an origin
 * that never answers is taken out by the health probes (its share going back to the healthy origins), and a Private
 * Link group cannot hold a public stand-in. So the share goes to the valid backends, and the condition says so.
 */
function redistributedShare(ruleIndex: number, invalid: readonly { label: string; weight: number }[], valid: readonly RuleBackend[]): string | undefined {
  const lost = invalid.filter((i) => i.weight > 0);
  const kept = valid.filter((v) => v.weight > 0);
  if (lost.length === 0 || kept.length === 0) return undefined;
  const total = [...lost, ...kept].reduce((sum, r) => sum + r.weight, 0);
  const share = lost.reduce((sum, r) => sum + r.weight, 0);
  return (
    `rule ${ruleIndex}: the share of ${lost.map((l) => l.label).join(', ')} (weight ${share} of ${total}) goes to the valid backends ` +
    `${kept.map((k) => k.backend).join(', ')} instead of getting 500 errors: AFD cannot answer part of a rule's traffic with an error ` +
    '(health probes take an origin that never answers out of rotation, and a Private Link origin group cannot hold a public origin)'
  );
}

function resolveRuleRefs(route: HTTPRoute, rule: ConvertedRule, ctx: RouteContext, problems: RefProblem[], notes: Set<string>): RuleRefs {
  const ok: RuleBackend[] = [];
  const invalid: { label: string; weight: number }[] = [];
  let held: string | undefined;
  for (const ref of rule.rule.backendRefs ?? []) {
    const resolution = ctx.refs.resolve(route, ref);
    if (!resolution.ok) {
      const message = `rule ${rule.index}: ${resolution.message}`;
      if (resolution.configurationError) {
        held = joinMessages([held, message]);
        problems.push({
          reason: resolution.reason,
          message: `${message}; rule ${rule.index} keeps serving the last programmed configuration (nothing, if it was never programmed) until this is fixed`,
        });
      } else {
        problems.push({ reason: resolution.reason, message });
      }
      invalid.push({ label: `${ref.kind ?? 'Service'} ${ref.namespace ?? route.metadata.namespace ?? ''}/${ref.name}`, weight: ref.weight ?? 1 });
      continue;
    }
    ok.push({ backend: resolution.key, weight: resolution.weight });
    for (const note of resolution.notes) notes.add(note);
  }
  const backends = mergeByBackend(ok);
  if (held) return { backends, held };
  const redistributed = rule.filters.some((f) => f.type === 'RequestRedirect') ? undefined : redistributedShare(rule.index, invalid, backends);
  if (redistributed) notes.add(redistributed);
  return { backends };
}

/** Where a rule's traffic goes: a shared split, the reason it must answer with an error, or why it is held. */
function ruleTraffic(rule: ConvertedRule, refs: RuleRefs, ctx: RouteContext): Pick<ModelRule, 'split' | 'withdrawn' | 'held'> {
  if (rule.filters.some((f) => f.type === 'RequestRedirect')) return {};
  if (refs.held) return { held: refs.held };
  if ((rule.rule.backendRefs ?? []).length === 0) return { withdrawn: 'NoBackends' };
  if (refs.backends.length === 0) return { withdrawn: 'NoValidBackends' };
  const split = ctx.splits.splitFor(refs.backends);
  return split.backends.every((b) => b.weight === 0) ? { split: split.key, withdrawn: 'AllBackendWeightsZero' } : { split: split.key };
}

function keptRule(route: HTTPRoute, rule: ConvertedRule, refs: RuleRefs, ctx: RouteContext): ModelRule {
  const traffic = ruleTraffic(rule, refs, ctx);
  return {
    index: rule.index,
    matches: rule.matches,
    filters: rule.filters,
    backends: traffic.held ? [] : refs.backends,
    ...traffic,
    source: { kind: 'HTTPRoute', namespace: route.metadata.namespace ?? '', name: route.metadata.name ?? '', section: `rule/${rule.index}` },
  };
}

/** What one parentRef of the route selects: the Gateway, one of its ListenerSets, or nothing of this Gateway. */
function parentOf(route: HTTPRoute, ref: ParentReference, ctx: RouteContext): ListenerParent | ListenerSetResolution | undefined {
  const { gateway } = ctx;
  if (targetsGateway(route, ref, gateway))
    return { kind: 'Gateway', namespace: gateway.metadata.namespace ?? '', name: gateway.metadata.name ?? '', listeners: ctx.listeners };
  return ctx.listenerSets.find((s) => targetsListenerSet(route, ref, s.key));
}

function attach(route: HTTPRoute, ref: ParentReference, parent: ListenerParent | ListenerSetResolution, ctx: RouteContext): ParentAttachment {
  if (!('set' in parent)) return attachParentRef(route, ref, parent, ctx.siblings, ctx.index);
  if (parent.notAllowed) {
    return { ok: false, reason: 'NotAllowedByListeners', message: `ListenerSet ${parent.key} is not attached: ${parent.notAllowed}`, counted: [] };
  }
  return attachParentRef(
    route,
    ref,
    { kind: 'ListenerSet', namespace: parent.owner.namespace, name: parent.owner.name, listeners: parent.listeners },
    ctx.siblings,
    ctx.index,
  );
}

/**
 * Attaches a route to the listeners of the Gateway and of its ListenerSets and resolves its rules and references;
 * undefined if it names neither.
 */
export function resolveRoute(route: HTTPRoute, ctx: RouteContext): RouteResolution | undefined {
  const refs = (route.spec.parentRefs ?? []).flatMap((ref) => {
    const parent = parentOf(route, ref, ctx);
    return parent ? [{ ref, parent }] : [];
  });
  if (refs.length === 0) return undefined;
  const annotations = parseHTTPRouteAnnotations(route.metadata.annotations);
  const rules = convertRules(route, ctx.profileTimeoutSeconds);
  const refProblems: RefProblem[] = [];
  const notes = new Set<string>();
  const ruleRefs = rules.map((rule) => resolveRuleRefs(route, rule, ctx, refProblems, notes));
  const keptRules = rules.filter((r) => r.problems.length === 0).map((r) => keptRule(route, r, ruleRefs[r.index] ?? { backends: [] }, ctx));
  for (const rule of keptRules) {
    if (rule.withdrawn) notes.add(withdrawnNote(rule.index, rule.withdrawn));
  }
  return {
    route,
    key: namespacedName(route.metadata.namespace ?? '', route.metadata.name ?? ''),
    parents: refs.map(({ ref, parent }) => ({ ref, attachment: attach(route, ref, parent, ctx) })),
    ...(annotations.ok ? {} : { annotationProblem: formatAnnotationErrors(annotations.errors) }),
    rules,
    keptRules,
    refProblems,
    notes: [...notes],
  };
}
