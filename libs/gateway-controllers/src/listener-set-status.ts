import type { ListenerSet } from '@fleet-gateway/api-types';
import type { ListenerSetVerdict, VerdictCondition } from '@fleet-gateway/model';
import { listenerStatus, type ProgrammedState } from './gateway-status.js';

type ListenerSetStatus = NonNullable<ListenerSet['status']>;

/**
 * Programmed of an accepted ListenerSet: its listeners are custom domains of the Gateway's AFD endpoint, so it is
 * programmed when the Gateway is (each listener's own Programmed says which DNS records its domains await), and
 * ParentNotProgrammed, with the Gateway's reason, when it is not.
 */
function programmedCondition(gatewayProgrammed: VerdictCondition | undefined, generation: number): VerdictCondition {
  const at = (status: VerdictCondition['status'], reason: string, message: string) => ({
    type: 'Programmed',
    status,
    reason,
    message,
    observedGeneration: generation,
  });
  if (!gatewayProgrammed || gatewayProgrammed.status === 'Unknown') return at('Unknown', 'Pending', 'the Gateway is not programmed yet');
  if (gatewayProgrammed.status === 'True') return at('True', 'Programmed', 'the listeners are programmed on the Gateway’s Azure Front Door endpoint');
  return at('False', 'ParentNotProgrammed', `the Gateway is not programmed: ${gatewayProgrammed.reason}`);
}

/** The status a ListenerSet gets from this reconcile of its Gateway: resolve's conditions, Programmed from Azure's side. */
export function listenerSetStatus(
  verdict: ListenerSetVerdict,
  generation: number,
  state: ProgrammedState,
  gatewayProgrammed: VerdictCondition | undefined,
): Required<Pick<ListenerSetStatus, 'conditions' | 'listeners'>> {
  const known = verdict.conditions.some((c) => c.type === 'Programmed');
  const conditions = known ? verdict.conditions : [...verdict.conditions, programmedCondition(gatewayProgrammed, generation)];
  const listeners = verdict.listeners.map((l, i) => listenerStatus(l, verdict.modelListeners[i] ?? l.name, state, gatewayProgrammed, generation));
  return { conditions: conditions as ListenerSetStatus['conditions'] & object, listeners: listeners as ListenerSetStatus['listeners'] & object };
}
