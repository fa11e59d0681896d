import type { AfdKind, AfdRef } from './afd-refs.js';
import type { Provenance } from './spec-types.js';

export type OperationAction = 'create' | 'update' | 'delete';

/** One ARM write: a PUT of `body` (create, update) or a DELETE. */
export interface Operation {
  readonly action: OperationAction;
  readonly ref: AfdRef;
  /** The SDK object to PUT; absent for deletes and for rule sets, which take no body. */
  readonly body?: object;
  /** Field-level changes of an update (`weight 333 -> 500`). */
  readonly changes: readonly string[];
  /** Why, in words the hub can put into a status message or event. */
  readonly reason: string;
  readonly provenance: Provenance;
}

const CREATE_LEVEL: Readonly<Record<AfdKind, number>> = {
  profile: 0,
  endpoint: 1,
  originGroup: 1,
  ruleSet: 1,
  origin: 2,
  rule: 2,
  route: 3,
  securityPolicy: 4,
};

const DELETE_LEVEL: Readonly<Record<AfdKind, number>> = {
  securityPolicy: 5,
  route: 6,
  rule: 7,
  origin: 7,
  ruleSet: 8,
  originGroup: 8,
  endpoint: 9,
  profile: 10,
};

/**
 * Execution order: parents before children on create and update (profile, then endpoint, groups and rule sets, then
 * origins and rules, then routes, then the security policy), so a route only ever switches to a group whose origins
 * exist (make-before-break); deletes after every create, children before parents.
 */
export function levelOf(op: Pick<Operation, 'action' | 'ref'>): number {
  return op.action === 'delete' ? DELETE_LEVEL[op.ref.kind] : CREATE_LEVEL[op.ref.kind];
}

/** Operations grouped by level, levels ascending; each level may run concurrently. */
export function orderOperations(operations: readonly Operation[]): Operation[][] {
  const levels = new Map<number, Operation[]>();
  for (const op of operations) levels.set(levelOf(op), [...(levels.get(levelOf(op)) ?? []), op]);
  return [...levels.entries()].sort(([a], [b]) => a - b).map(([, ops]) => ops);
}
