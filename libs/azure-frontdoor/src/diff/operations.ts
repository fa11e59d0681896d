import type { AfdKind, AfdRef } from '../plan/afd-refs.js';
import type { Provenance } from '../plan/spec-types.js';

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
  customDomain: 1,
  originGroup: 1,
  ruleSet: 1,
  origin: 2,
  rule: 4,
  route: 5,
  securityPolicy: 6,
};

/** Origin writes that disable run after every origin write that enables (see `levelOf`). */
const ORIGIN_DISABLE_LEVEL = 3;

const DELETE_LEVEL: Readonly<Record<AfdKind, number>> = {
  securityPolicy: 7,
  route: 8,
  rule: 9,
  customDomain: 10,
  origin: 10,
  ruleSet: 10,
  originGroup: 11,
  endpoint: 12,
  profile: 13,
};

/**
 * Execution order, so that every step is legal on AFD (a route or rule override may only point at a group with an
 * enabled origin, and the last enabled origin of a group in use can be neither disabled nor deleted): parents before
 * children on create and update (profile, then endpoint, groups and rule sets, then origins that end enabled, then
 * origins that end disabled, then rules, then routes, then the security policy), so a route or override only ever
 * switches to a group whose origins exist (make-before-break) and a custom domain exists before a route serves it;
 * deletes after every create, the security policy and routes before the custom domains they name, routes and rules before
 * origins, children before parents, so a group's origins go only once nothing points at it.
 */
export function levelOf(op: Pick<Operation, 'action' | 'ref' | 'wave' | 'body'>): number {
  if (op.action === 'delete' && op.wave === undefined) return DELETE_LEVEL[op.ref.kind];
  if (op.ref.kind === 'origin' && (op.body as { enabledState?: string } | undefined)?.enabledState === 'Disabled') return ORIGIN_DISABLE_LEVEL;
  return CREATE_LEVEL[op.ref.kind];
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
