import type { GlobalGateway, ModelBackend, ModelRule, RoutingCandidate, SourceRef, TrafficSplit } from '@fleet-gateway/model';
import { originGroupName } from './afd-names.js';
import { canonicalJson, compareText } from './canonical.js';
import { planOrigin } from './plan-origins.js';
import type { PlanProblem } from './plan-types.js';
import type { ForwardingProtocol, HealthProbeSpec, OriginGroupSpec, OriginSpec } from './spec-types.js';

/** Identity of a rule within the Gateway: `namespace/name#index`, the key of `groupOfRule` and `problemOfRule`. */
export function ruleKey(candidate: Pick<RoutingCandidate, 'route' | 'rule'>): string {
  return `${candidate.route}#${candidate.rule}`;
}

export interface PlannedGroup {
  readonly name: string;
  readonly forwardingProtocol: ForwardingProtocol;
  /** The rule has nothing to send traffic to (redirect, no valid backend, no origin left): `name` is the sink group. */
  readonly withdrawn: boolean;
}

export interface OriginGroupPlan {
  /** In no particular order: the graph sorts them together with the sink. */
  readonly groups: readonly OriginGroupSpec[];
  readonly origins: readonly OriginSpec[];
  /** For every rule that can be planned, the group that carries its traffic. */
  readonly groupOfRule: ReadonlyMap<string, PlannedGroup>;
  /** For every rule that cannot be planned, why (also in `problems`). */
  readonly problemOfRule: ReadonlyMap<string, PlanProblem>;
  readonly problems: readonly PlanProblem[];
}

export const WIDEST_LATENCY_BAND_MS = 1000;

/** One AFD origin group to be: a model traffic split whose rules still have an origin to send traffic to. */
interface GroupDraft {
  /** Names the group: the backend set. */
  readonly identity: string;
  readonly readable: string;
  readonly split: TrafficSplit;
  readonly backends: readonly ModelBackend[];
  readonly healthProbe?: HealthProbeSpec;
  readonly latency: number;
  readonly forwardingProtocol: ForwardingProtocol;
  readonly rules: SourceRef[];
}

/**
 * The backend port's appProtocol decides; without one, the health probe protocol does (what the backend answers
 * probes with is what it speaks), as before appProtocol was read.
 */
function forwardingProtocolOf(backend: ModelBackend): ForwardingProtocol {
  const protocol = backend.appProtocol ?? (backend.probe.protocol === 'Https' ? 'https' : 'http');
  return protocol === 'https' ? 'HttpsOnly' : 'HttpOnly';
}

function probeOf(backend: ModelBackend): HealthProbeSpec {
  const { path, protocol, requestType, intervalSeconds } = backend.probe;
  return { probePath: path, probeProtocol: protocol, probeRequestType: requestType, probeIntervalInSeconds: intervalSeconds };
}

type DraftOrProblem = { readonly draft: Omit<GroupDraft, 'rules'> } | { readonly problem: { code: PlanProblem['code']; message: string } };

/** Whether one AFD group can hold every backend of a split; the problem says why not. */
function draftSplit(split: TrafficSplit, backendsByKey: ReadonlyMap<string, ModelBackend>): DraftOrProblem {
  const backends = split.backends.map((ref) => backendsByKey.get(ref.backend)).filter((b): b is ModelBackend => b !== undefined);
  if (new Set(backends.map((b) => b.connectivity).filter((c) => c !== 'unknown')).size > 1) {
    const sides = backends.map((b) => `${b.key} is ${b.connectivity}`).join(', ');
    return { problem: { code: 'MixedOriginConnectivity', message: `public and Private Link origins cannot share one AFD origin group (${sides})` } };
  }
  const probes = new Set(backends.map((b) => canonicalJson(probeOf(b))));
  const latencies = new Set(backends.map((b) => b.latencySensitivityMilliseconds));
  if (probes.size > 1 || latencies.size > 1) {
    const what = probes.size > 1 ? 'health probe settings' : 'latency sensitivity';
    const detail = backends.map((b) => `${b.key}: ${probes.size > 1 ? canonicalJson(b.probe) : `${b.latencySensitivityMilliseconds} ms`}`).join('; ');
    return {
      problem: { code: 'OriginGroupSettingsDiffer', message: `its backends have different ${what}, which one AFD origin group cannot hold (${detail})` },
    };
  }
  const protocols = new Set(backends.map(forwardingProtocolOf));
  if (protocols.size > 1) {
    const detail = backends
      .map((b) => `${b.key}: ${forwardingProtocolOf(b)}${b.appProtocol === undefined ? ' (health probe protocol)' : ` (appProtocol ${b.appProtocol})`}`)
      .join('; ');
    return {
      problem: {
        code: 'OriginGroupSettingsDiffer',
        message: `its backends have different forwarding protocols, which one AFD route cannot forward with (${detail})`,
      },
    };
  }
  const first = backends[0];
  return {
    draft: {
      identity: backends
        .map((b) => b.key)
        .sort(compareText)
        .join(','),
      readable: first?.name ?? 'backend',
      split,
      backends,
      ...(first ? { healthProbe: probeOf(first) } : {}),
      latency: first?.latencySensitivityMilliseconds ?? WIDEST_LATENCY_BAND_MS,
      forwardingProtocol: first ? forwardingProtocolOf(first) : 'HttpOnly',
    },
  };
}

/** No origin left to send traffic to: the rule answers with AFD's error, never another backend's response. */
function lostEveryOrigin(split: TrafficSplit): boolean {
  return !split.origins.some((o) => o.state !== 'disabled');
}

function assignNames(drafts: readonly GroupDraft[]): Map<GroupDraft, string> {
  const names = new Map<GroupDraft, string>();
  const taken = new Set<string>();
  for (const draft of drafts) {
    // A backend set used by two splits (different weights): the second group is named after its first rule.
    const first = draft.rules[0];
    const identity = taken.has(draft.identity) && first ? `${draft.identity}#${first.namespace}/${first.name}/${first.section ?? ''}` : draft.identity;
    taken.add(draft.identity);
    names.set(draft, originGroupName(draft.readable, identity));
  }
  return names;
}

/**
 * One origin group per model traffic split (the model already merges rules with proportional backend weights),
 * named after its backend set so that a weight change updates origins in place. A rule with nothing to send
 * traffic to — a redirect, no valid backend, or a split that lost every origin (withdrawn) — uses the endpoint's
 * sink group (`sink.ts`): AFD refuses a route or override to a group without an enabled origin.
 */
export function planOriginGroups(model: GlobalGateway, profile: string, sinkGroup: string): OriginGroupPlan {
  const backendsByKey = new Map(model.backends.map((b) => [b.key, b]));
  const splits = new Map(model.splits.map((s) => [s.key, s]));
  const problemOfRule = new Map<string, PlanProblem>();
  const drafts = new Map<string, GroupDraft>();
  const draftOfRule = new Map<string, GroupDraft>();
  const sinkRules = new Set<string>();
  // Oldest route first, so that when two splits share a backend set the older keeps the plain group name: a newer
  // route's weights never rename (and so rewrite) an older route's group.
  const byAge = [...model.routes].sort((a, b) => compareText(a.creationTimestamp ?? '\uffff', b.creationTimestamp ?? '\uffff'));
  for (const route of byAge) {
    for (const rule of route.rules) {
      const key = ruleKey({ route: `${route.namespace}/${route.name}`, rule: rule.index });
      if (rule.held !== undefined) {
        problemOfRule.set(key, ruleProblem(rule, 'InvalidBackendConfiguration', `${rule.held}; serving the last programmed configuration`));
        continue;
      }
      const split = rule.split === undefined ? undefined : splits.get(rule.split);
      if (split === undefined || rule.withdrawn !== undefined || lostEveryOrigin(split)) {
        sinkRules.add(key);
        continue;
      }
      const checked = draftSplit(split, backendsByKey);
      if ('problem' in checked) {
        problemOfRule.set(key, ruleProblem(rule, checked.problem.code, checked.problem.message));
        continue;
      }
      const draft = drafts.get(split.key) ?? { ...checked.draft, rules: [] };
      draft.rules.push(rule.source);
      drafts.set(split.key, draft);
      draftOfRule.set(key, draft);
    }
  }
  const names = assignNames([...drafts.values()]);
  const groups: OriginGroupSpec[] = [];
  const origins: OriginSpec[] = [];
  for (const draft of drafts.values()) {
    const name = names.get(draft) as string;
    groups.push({
      ref: { kind: 'originGroup', profile, originGroup: name },
      ...(draft.healthProbe ? { healthProbe: draft.healthProbe } : {}),
      additionalLatencyInMilliseconds: draft.latency,
      backends: draft.backends.map((b) => b.key).sort(compareText),
      provenance: draft.rules,
    });
    for (const entry of draft.split.origins) {
      const backend = backendsByKey.get(entry.backend);
      if (backend) origins.push(planOrigin({ profile, group: name, entry, backend, rules: draft.rules }));
    }
  }
  const groupOfRule = new Map<string, PlannedGroup>();
  for (const [key, draft] of draftOfRule) {
    groupOfRule.set(key, { name: names.get(draft) as string, forwardingProtocol: draft.forwardingProtocol, withdrawn: false });
  }
  for (const key of sinkRules) groupOfRule.set(key, { name: sinkGroup, forwardingProtocol: 'HttpOnly', withdrawn: true });
  return {
    groups,
    origins,
    groupOfRule,
    problemOfRule,
    problems: [...problemOfRule.values()],
  };
}

function ruleProblem(rule: ModelRule, code: PlanProblem['code'], message: string): PlanProblem {
  return { code, message: `${rule.source.namespace}/${rule.source.name} ${rule.source.section ?? ''}: ${message}`, source: rule.source, blocksWrites: false };
}
