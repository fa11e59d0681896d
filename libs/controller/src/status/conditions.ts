import { formatTime } from '../util/micro-time.js';
import { capMessage } from './condition-message.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** metav1.Condition. */
export interface Condition {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
  readonly observedGeneration?: number;
  readonly lastTransitionTime: string;
}

/** A condition as computed by pure status code: the transition time is stamped at write time, never earlier. */
export type DesiredCondition = Omit<Condition, 'lastTransitionTime'> & { readonly lastTransitionTime?: string };

/**
 * Stamps `lastTransitionTime` the way meta.SetStatusCondition does: kept from the existing condition of the same
 * type when the status did not change (even if reason or message did), `now` otherwise. Returns new objects in the
 * order of `desired`; existing conditions of types not in `desired` are not carried over. Every message is capped at
 * the CRDs' bound (`capMessage`), so no message, however many items it lists, makes the API refuse a status write.
 */
export function stampConditions(existing: readonly DesiredCondition[] | undefined, desired: readonly DesiredCondition[], now: Date): Condition[] {
  return desired.map((condition) => {
    const previous = existing?.find((c) => c.type === condition.type);
    const lastTransitionTime =
      previous?.lastTransitionTime !== undefined && previous.status === condition.status ? previous.lastTransitionTime : formatTime(now);
    return { ...condition, message: capMessage(condition.message), lastTransitionTime };
  });
}

export function findCondition<C extends DesiredCondition>(conditions: readonly C[] | undefined, type: string): C | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly DesiredCondition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}
