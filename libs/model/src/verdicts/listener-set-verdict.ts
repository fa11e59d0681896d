import type { ListenerSetResolution } from '../resolve/listener-sets.js';
import { conditionsFor, joinMessages } from './conditions.js';
import type { ListenerSetVerdict, ListenerVerdict, VerdictCondition } from './verdict-types.js';

/**
 * Accepted (and Programmed, when resolve knows it is False) of one ListenerSet, with the spec's reasons: NotAllowed
 * when the Gateway's allowedListeners does not admit it, ParentNotAccepted when the Gateway is not accepted,
 * ListenersNotValid when some (True) or all (False) of its listeners are not valid. Only its own listeners are
 * summarized: nothing of the Gateway's or a sibling's shows here but what conflicts with it.
 */
function listenerSetConditions(res: ListenerSetResolution, gatewayAccepted: VerdictCondition | undefined): VerdictCondition[] {
  const { isTrue, isFalse } = conditionsFor(res.owner.generation);
  const notProgrammed = (reason: string, why: VerdictCondition) => [why, isFalse('Programmed', reason, `not accepted: ${why.message}`)];
  if (res.notAllowed) return notProgrammed('NotAllowed', isFalse('Accepted', 'NotAllowed', res.notAllowed));
  if (gatewayAccepted?.status !== 'True') {
    const gateway = res.set.spec.parentRef.name;
    const why = isFalse('Accepted', 'ParentNotAccepted', `Gateway ${gateway} is not accepted${gatewayAccepted ? ` (${gatewayAccepted.reason})` : ''}`);
    return notProgrammed('ParentNotProgrammed', why);
  }
  const invalid = res.listeners.filter((l) => l.problem);
  const text = joinMessages(invalid.map((l) => `listener ${l.name}: ${l.problem}`));
  if (invalid.length === res.listeners.length)
    return notProgrammed('ListenersNotValid', isFalse('Accepted', 'ListenersNotValid', `no listener is valid: ${text}`));
  if (invalid.length > 0) return [isTrue('Accepted', 'ListenersNotValid', `some listeners are not valid: ${text}`)];
  return [isTrue('Accepted', 'Accepted', 'ListenerSet is valid and attached to its Gateway')];
}

/**
 * The verdict of each ListenerSet naming the Gateway; `attachedRoutes` counts, per listener, the routes counted on it
 * (its id, so a Gateway listener or a sibling's of the same name counts apart).
 */
export function listenerSetVerdicts(
  sets: readonly ListenerSetResolution[],
  gatewayAccepted: VerdictCondition | undefined,
  attachedRoutes: (listenerId: string) => number,
): ListenerSetVerdict[] {
  return sets.map((res) => ({
    namespace: res.owner.namespace,
    name: res.owner.name,
    conditions: listenerSetConditions(res, gatewayAccepted),
    listeners: res.listeners.map((l): ListenerVerdict => ({
      name: l.name,
      supportedKinds: l.supportedKinds,
      attachedRoutes: attachedRoutes(l.id),
      conditions: l.conditions,
    })),
    modelListeners: res.listeners.map((l) => l.id),
  }));
}

/** The spec's status.attachedListenerSets: admitted by allowedListeners, naming the Gateway, and Accepted. */
export function attachedListenerSets(verdicts: readonly ListenerSetVerdict[]): number {
  return verdicts.filter((v) => v.conditions.some((c) => c.type === 'Accepted' && c.status === 'True')).length;
}
