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
  /**
   * Routes only: AFD refuses a route that claims a (pattern, protocol) another route still holds, so a route write
   * runs after the writes of the routes it takes patterns from (a higher wave). A route delete with a wave frees
   * patterns another route takes: it runs among the route writes instead of with the deletes.
   */
  readonly wave?: number;
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
export function levelOf(op: Pick<Operation, 'action' | 'ref' | 'wave'>): number {
  return op.action === 'delete' && op.wave === undefined ? DELETE_LEVEL[op.ref.kind] : CREATE_LEVEL[op.ref.kind];
}

/** Operations grouped by level (and route wave within the route level), ascending; each group may run concurrently. */
export function orderOperations(operations: readonly Operation[]): Operation[][] {
  const groups = new Map<string, { level: number; wave: number; ops: Operation[] }>();
  for (const op of operations) {
    const level = levelOf(op);
    const wave = op.wave ?? 0;
    const group = groups.get(`${level}/${wave}`) ?? { level, wave, ops: [] };
    group.ops.push(op);
    groups.set(`${level}/${wave}`, group);
  }
  return [...groups.values()].sort((a, b) => a.level - b.level || a.wave - b.wave).map((g) => g.ops);
}
