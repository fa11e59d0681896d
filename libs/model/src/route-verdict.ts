import { conditionsFor, joinMessages } from './conditions.js';
import type { RouteResolution } from './route-resolution.js';
import type { RouteVerdict, VerdictCondition } from './verdict-types.js';

function droppedRules(res: RouteResolution): string[] {
  return res.rules.filter((r) => r.problems.length > 0).map((r) => `rule ${r.index}: ${r.problems.join(', ')}`);
}

function resolvedRefs(res: RouteResolution, make: ReturnType<typeof conditionsFor>): VerdictCondition {
  const [first] = res.refProblems;
  if (first) return make.isFalse('ResolvedRefs', first.reason, joinMessages(res.refProblems.map((p) => p.message)));
  return make.isTrue('ResolvedRefs', 'ResolvedRefs', joinMessages(['all backendRefs resolved', ...res.notes]));
}

/** The conditions of each of the route's parentRefs to this Gateway. */
export function routeVerdict(res: RouteResolution, shadowNotes: readonly string[]): RouteVerdict {
  const make = conditionsFor(res.route.metadata.generation ?? 0);
  const dropped = droppedRules(res);
  const allDropped = res.rules.length > 0 && dropped.length === res.rules.length;
  const refs = resolvedRefs(res, make);
  const parents = res.parents.map(({ ref, attachment }) => {
    const conditions: VerdictCondition[] = [];
    if (!attachment.ok) conditions.push(make.isFalse('Accepted', attachment.reason, attachment.message));
    else if (res.annotationProblem) conditions.push(make.isFalse('Accepted', 'UnsupportedValue', res.annotationProblem));
    else if (allDropped) conditions.push(make.isFalse('Accepted', 'UnsupportedValue', `all rules are dropped: ${dropped.join('; ')}`));
    else {
      const listeners = [...new Set(attachment.attachments.map((a) => a.listener.name))].join(', ');
      conditions.push(make.isTrue('Accepted', 'Accepted', joinMessages([`attached to listeners ${listeners}`, ...shadowNotes])));
    }
    conditions.push(refs);
    if (attachment.ok && !res.annotationProblem && !allDropped && dropped.length > 0) {
      conditions.push(make.isTrue('PartiallyInvalid', 'UnsupportedValue', `Dropped Rule(s): ${dropped.join('; ')}`));
    }
    return { parentRef: ref, conditions };
  });
  return { namespace: res.route.metadata.namespace ?? '', name: res.route.metadata.name ?? '', parents };
}
