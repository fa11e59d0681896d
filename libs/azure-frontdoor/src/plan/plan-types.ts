import type { SourceRef } from '@fleet-gateway/model';
import type { CapacityLimits } from './afd-limits.js';
import type { CapacityViolation } from './capacity.js';
import type { FrontDoorGraph } from './spec-types.js';

/**
 * Why part of a Gateway is not planned. Rule-level codes leave that rule out (the hub turns them into route
 * conditions); graph-level codes (`blocksWrites`) stop every write, because the graph as a whole is unsafe to send.
 */
export type PlanProblemCode =
  | 'InvalidBackendConfiguration'
  | 'MixedOriginConnectivity'
  | 'OriginGroupSettingsDiffer'
  | 'NoUnconditionalFallback'
  | 'TooManyRules'
  | 'TooManyRoutes'
  | 'DuplicateRoutePattern'
  | 'InvalidRoutePattern'
  | 'NameCollision'
  | 'InvalidName';

export interface PlanProblem {
  readonly code: PlanProblemCode;
  readonly message: string;
  /** The HTTPRoute rule (section `rule/N`) or other object the problem is about. */
  readonly source?: SourceRef;
  readonly blocksWrites: boolean;
}

export interface PlanOptions {
  /** This hub's identity, written into the ownership tags. */
  readonly hubIdentity: string;
  /** Lower AFD's limits (never raise them), e.g. to keep headroom. */
  readonly capacityLimits?: Partial<CapacityLimits>;
}

export interface FrontDoorPlan {
  readonly graph: FrontDoorGraph;
  readonly problems: readonly PlanProblem[];
  readonly capacity: readonly CapacityViolation[];
}

/** True when the plan may be applied: no capacity violation and no graph-level problem. */
export function isWritable(plan: FrontDoorPlan): boolean {
  return plan.capacity.length === 0 && !plan.problems.some((p) => p.blocksWrites);
}
