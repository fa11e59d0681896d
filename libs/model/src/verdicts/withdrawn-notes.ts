import type { WithdrawalReason } from '../model/model-types.js';
import type { RouteVerdict } from './verdict-types.js';

/** What ResolvedRefs says of a rule the model withdraws. */
export function withdrawnNote(rule: number, reason: WithdrawalReason): string {
  return `rule ${rule} is withdrawn (${reason}): its requests get an error, never another rule's backend`;
}

const WITHDRAWN = /rule (\d+) is withdrawn \((\w+)\): its requests get an error, never another rule's backend/g;

/**
 * The route verdicts of a model that was not programmed at all (the Gateway held, or the provider refusing the whole
 * model before any write): a rule this model would withdraw still serves what Azure has, and its note says so and
 * why, instead of reporting a withdrawal that did not happen.
 */
export function withdrawalsNotMade(routes: readonly RouteVerdict[], why: string): RouteVerdict[] {
  const truthful = (message: string) =>
    message.replace(
      WITHDRAWN,
      (_all, rule: string, reason: string) => `rule ${rule} would be withdrawn (${reason}), but ${why}: it keeps serving as last programmed`,
    );
  return routes.map((route) => ({
    ...route,
    parents: route.parents.map((parent) => ({ ...parent, conditions: parent.conditions.map((c) => ({ ...c, message: truthful(c.message) })) })),
  }));
}
