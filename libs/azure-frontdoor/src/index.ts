// Pure: names, ownership, limits, the plan and the diff.
export * from './plan/afd-limits.js';
export * from './plan/afd-names.js';
export * from './plan/afd-refs.js';
export * from './plan/capacity.js';
export * from './plan/ownership.js';
export { SINK_HOST_SUFFIX } from './plan/sink.js';
export { allRefs, planFrontDoor } from './plan/plan-front-door.js';
export * from './plan/plan-types.js';
export { planProblemsByRoute, type RoutePlanProblems } from './plan/route-plan-problems.js';
export * from './plan/route-patterns.js';
export type * from './plan/spec-types.js';
export { diffFrontDoor, type DiffResult, type Note } from './diff/diff.js';
export { levelOf, orderOperations, type Operation, type OperationAction } from './diff/operations.js';

// I/O at the edges: ARM clients (on @fleet-gateway/arm-runtime), observe, apply, reconcile, delete.
export { createFrontDoorClients, type FrontDoorClients } from './clients/arm-clients.js';
export { observeFrontDoor, type Observed, type ObservedGraph, type ObserveOptions } from './observe/observe.js';
export { applyOperations, type ApplyOptions, type OperationResult } from './apply/apply.js';
export { describeFailureReport, reconcileFrontDoor, type ReconcileOptions } from './apply/reconcile.js';
export { TerminalRefusals, type TerminalRefusalsOptions } from './apply/terminal-refusals.js';
export { bodyReferences, operationDependencies } from './apply/operation-dependencies.js';
export { deleteFrontDoor, type DeleteOptions, type DeleteReport } from './apply/delete-front-door.js';
export { checkWafPolicy, type WafCheck } from './observe/waf-policy.js';
export type * from './observe/report-types.js';
export { dnsInstructions, isApex, validationRecordName, TOKEN_REFRESH_AHEAD_MS, type CustomDomainReport } from './observe/domain-validation.js';
