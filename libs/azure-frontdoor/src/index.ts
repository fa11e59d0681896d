// What other projects use of the provider, and the steps the README's public API table documents; everything else
// is exported only from its own module, for the provider's own use.

// plan (pure): names, ownership, limits and capacity, route patterns, the plan and its types.
export { armId, describeRef, refKey, refName, type AfdRef, type FrontDoorScope } from './plan/afd-refs.js';
export {
  customDomainName,
  endpointName,
  NAME_RULES,
  nameProblem,
  originGroupName,
  originName,
  profileName,
  routeName,
  ruleName,
  ruleSetName,
  securityPolicyName,
} from './plan/afd-names.js';
export { checkOwnership, hubIdentityOf, OWNERSHIP_TAGS, ownershipTags, type Owner } from './plan/ownership.js';
export { AFD_LIMITS, limitsFor, type CapacityDimension, type CapacityLimits } from './plan/afd-limits.js';
export { capacityViolations, checkCapacity, measureGraph } from './plan/capacity.js';
export { expandRoute, findRoutePatternConflicts, patternFor } from './plan/route-patterns.js';
export { SINK_HOST_SUFFIX } from './plan/sink.js';
export { allRefs, allSpecs, planFrontDoor } from './plan/plan-front-door.js';
export { isWritable, type FrontDoorPlan } from './plan/plan-types.js';
export { planProblemsByRoute, type RoutePlanProblems } from './plan/route-plan-problems.js';
export type {
  EndpointSpec,
  FrontDoorGraph,
  OriginGroupSpec,
  OriginSpec,
  ProfileSpec,
  RouteSpec,
  RuleSetSpec,
  RuleSpec,
  SecurityPolicySpec,
} from './plan/spec-types.js';

// diff (pure): the operations that bring AFD to the plan, and their order.
export { diffFrontDoor } from './diff/diff.js';
export { orderOperations, type OperationAction } from './diff/operations.js';
export { measureAfterApply } from './diff/capacity-after-apply.js';

// I/O at the edges: ARM clients (on @fleet-gateway/arm-runtime), observe, apply, reconcile, delete.
export { createFrontDoorClients, type FrontDoorClients } from './clients/arm-clients.js';
export { EMPTY_GRAPH, observeFrontDoor, type ObservedGraph } from './observe/observe.js';
export { observedResources } from './observe/observed-resources.js';
export { checkWafPolicy } from './observe/waf-policy.js';
export type { FailureReport, ReconcileReason, ReconcileReport, ResourceReport } from './observe/report-types.js';
export { applyOperations } from './apply/apply.js';
export { privateLinkApprovalCommand } from './apply/readiness.js';
export { reconcileFrontDoor } from './apply/reconcile.js';
export { TerminalRefusals } from './apply/terminal-refusals.js';
export { deleteFrontDoor } from './apply/delete-front-door.js';
export { OperationDurations } from './apply/operation-durations.js';
export type { FollowSettings, OperationClock } from './apply/operation-follower.js';
