import type { ListenerAttachment } from '../resolve/attachment.js';
import { conditionsFor, joinMessages } from './conditions.js';
import type { RouteResolution } from '../resolve/route-resolution.js';
import type { RouteVerdict, VerdictCondition } from './verdict-types.js';

function droppedRules(res: RouteResolution): string[] {
  return res.rules.filter((r) => r.problems.length > 0).map((r) => `rule ${r.index}: ${r.problems.join(', ')}`);
}

/**
 * Unknown clusters and withdrawn rules are named whether or not every reference resolved. They are those of what is
 * served: the last accepted generation while the route is held.
 */
function resolvedRefs(res: RouteResolution, make: ReturnType<typeof conditionsFor>, held?: HeldRoute): VerdictCondition {
  const notes = held ? [heldNote(res, held), ...held.served.notes] : res.notes;
  const [first] = res.refProblems;
  if (first) return make.isFalse('ResolvedRefs', first.reason, joinMessages([...res.refProblems.map((p) => p.message), ...notes]));
  return make.isTrue('ResolvedRefs', 'ResolvedRefs', joinMessages(['all backendRefs resolved', ...notes]));
}

/**
 * Why the route is not accepted through this parentRef, most fundamental first; all are reported together. A held
 * route serves none of its current rules, so a dropped rule refuses its generation too.
 */
function acceptanceProblems(
  res: RouteResolution,
  attachment: RouteResolution['parents'][number]['attachment'],
  dropped: readonly string[],
  modelErrors?: string,
  held?: HeldRoute,
) {
  const problems: { reason: string; message: string }[] = [];
  if (!attachment.ok) problems.push({ reason: attachment.reason, message: attachment.message });
  if (modelErrors) problems.push({ reason: 'UnsupportedValue', message: `the route is not programmed: the model refuses it (${modelErrors})` });
  if (res.annotationProblem) problems.push({ reason: 'UnsupportedValue', message: res.annotationProblem });
  if (res.rules.length > 0 && dropped.length === res.rules.length) {
    problems.push({ reason: 'UnsupportedValue', message: `all rules are dropped: ${dropped.join('; ')}` });
  } else if (held && dropped.length > 0) {
    problems.push({ reason: 'UnsupportedValue', message: `Dropped Rule(s): ${dropped.join('; ')}` });
  }
  // Invalid listeners say so themselves; through the valid ones, every host AFD refuses leaves nothing to serve.
  const valid = attachment.ok ? attachment.attachments.filter((a) => !a.listener.problem) : [];
  const refused = valid.flatMap((a) => a.refused);
  if (refused.length > 0 && valid.every((a) => a.hostnames.length === 0)) {
    problems.push({ reason: 'UnsupportedValue', message: `no hostname of the route can be served: ${refused.map((r) => r.problem).join('; ')}` });
  } else if (held && refused.length > 0) {
    problems.push({ reason: 'UnsupportedValue', message: `hostnames not served: ${refused.map((r) => r.problem).join('; ')}` });
  }
  return problems;
}

/** A route whose current generation is not valid in full, served as last accepted (see route-serving.ts). */
export interface HeldRoute {
  readonly served: RouteResolution;
  readonly generation: number;
}

function heldNote(res: RouteResolution, held: HeldRoute): string {
  return `generation ${res.route.metadata.generation ?? 0} is not served: serving generation ${held.generation}, the last one accepted in full, until this is fixed (an invalid edit never withdraws what was working)`;
}

/** What a listener the route attaches to does not serve for it: everything (invalid), hosts AFD refuses, isolated hosts. */
function unservedThrough(a: ListenerAttachment): string[] {
  if (a.listener.problem) return [`listener ${a.listener.name} is not valid, so nothing is served through it (${a.listener.problem})`];
  const refused = a.refused.map((r) => `hostname ${r.host} is not served through listener ${a.listener.name}: ${r.problem}`);
  if (a.hostnames.length > 0 || a.isolated.length === 0) return refused;
  const owners = a.isolated.map((i) => `${i.host} by listener ${i.listener}`).join(', ');
  return [
    ...refused,
    `listener ${a.listener.name} serves none of the route's hostnames: listener isolation gives each to the most specific listener (${owners})`,
  ];
}

/** What precedence across routes decided about this one's matches. */
export interface RoutingNotes {
  /** Matches an identical, higher-precedence match takes everywhere: the route is still accepted. */
  readonly shadowed: readonly string[];
  /** Matches left out because an older route holds the same path but for case: reported as dropped. */
  readonly caseCollisions: readonly string[];
  /** Set when the model refused the route: its structural errors (the rest of the Gateway is programmed). */
  readonly modelErrors?: string;
}

/**
 * The conditions of each of the route's parentRefs to this Gateway, for its current generation. A held route's
 * False conditions name what is wrong and the generation served instead.
 */
export function routeVerdict(res: RouteResolution, notes: RoutingNotes, held?: HeldRoute): RouteVerdict {
  const make = conditionsFor(res.route.metadata.generation ?? 0);
  const dropped = droppedRules(res);
  const shadowNotes = held ? [heldNote(res, held)] : notes.shadowed;
  const refs = resolvedRefs(res, make, held);
  const parents = res.parents.map(({ ref, attachment }) => {
    const conditions: VerdictCondition[] = [];
    const problems = acceptanceProblems(res, attachment, dropped, notes.modelErrors, held);
    const [first] = problems;
    if (first)
      conditions.push(make.isFalse('Accepted', first.reason, joinMessages([...problems.map((p) => p.message), ...(held ? [heldNote(res, held)] : [])])));
    else if (attachment.ok) {
      const listeners = [...new Set(attachment.attachments.map((a) => a.listener.name))].join(', ');
      const unserved = attachment.attachments.flatMap(unservedThrough);
      conditions.push(make.isTrue('Accepted', 'Accepted', joinMessages([`attached to listeners ${listeners}`, ...unserved, ...shadowNotes])));
    }
    conditions.push(refs);
    const left = [...dropped, ...notes.caseCollisions];
    if (!first && left.length > 0) {
      conditions.push(make.isTrue('PartiallyInvalid', 'UnsupportedValue', `Dropped Rule(s): ${left.join('; ')}`));
    }
    return { parentRef: ref, conditions };
  });
  return { namespace: res.route.metadata.namespace ?? '', name: res.route.metadata.name ?? '', parents };
}
